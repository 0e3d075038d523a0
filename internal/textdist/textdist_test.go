package textdist

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{
		{"explain", "explain", 0}, {"explian", "explain", 1}, {"explan", "explain", 1}, {"explainn", "explain", 1},
		{"exqlain", "explain", 1}, {"xeplian", "explain", 2}, {"", "explain", 7}, {"abc", "", 3}, {"ca", "abc", 3},
		{"MAXINFLIGHT", "MAXINFLIGHT", 0}, {"BODYLIMTI", "BODYLIMIT", 1},
	} {
		t.Run(tt.a+"/"+tt.b, func(t *testing.T) {
			assert.Equal(t, tt.d, EditDistance(tt.a, tt.b))
			assert.Equal(t, tt.d, EditDistance(tt.b, tt.a))
		})
	}
}
