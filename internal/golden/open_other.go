//go:build !unix

package golden

// openNonBlock is 0 where there are no named pipes to wait for.
const openNonBlock = 0
