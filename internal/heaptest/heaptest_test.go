package heaptest

import "testing"

var sink []byte

func TestPeakSeesAnAllocation(t *testing.T) {
	const size = 64 << 20
	peak := Peak(func() {
		sink = make([]byte, size)
		for i := range sink {
			sink[i] = 1
		}
	})
	sink = nil
	if peak < size || peak > 2*size {
		t.Fatalf("Peak = %d, want about %d", peak, size)
	}
	if tiny := Peak(func() {}); tiny > 8<<20 {
		t.Fatalf("Peak of nothing = %d", tiny)
	}
}
