package messages

// chunkLen is the length of every chunk of a chunked list but the first, which grows to it.
const chunkLen = 4096

// chunked is an append-only list kept in chunks of chunkLen entries: growing it never copies
// what it holds, so the descriptors of a long transcript never exist twice in memory, and a
// short one allocates no more than a plain slice would.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

func (c *chunked[T]) len() int { return c.n }

func (c *chunked[T]) at(i int) *T { return &c.chunks[i/chunkLen][i%chunkLen] }

func (c *chunked[T]) last() *T { return c.at(c.n - 1) }

func (c *chunked[T]) append(v T) {
	k := c.n / chunkLen
	if k == len(c.chunks) {
		if k == 0 {
			c.chunks = append(c.chunks, make([]T, 0, 16))
		} else {
			c.chunks = append(c.chunks, make([]T, 0, chunkLen))
		}
	}
	c.chunks[k] = append(c.chunks[k], v)
	c.n++
}

// truncate forgets every entry from the n-th on, keeping the chunks for reuse.
func (c *chunked[T]) truncate(n int) {
	if n >= c.n {
		return
	}
	k := n / chunkLen
	c.chunks[k] = c.chunks[k][:n%chunkLen]
	for j := k + 1; j < len(c.chunks); j++ {
		c.chunks[j] = c.chunks[j][:0]
	}
	c.n = n
}

// footprint is the number of entries the list has room for.
func (c *chunked[T]) footprint() int {
	total := 0
	for _, ch := range c.chunks {
		total += cap(ch)
	}
	return total
}
