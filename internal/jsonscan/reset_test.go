package jsonscan

import (
	"reflect"
	"testing"
	"unsafe"
)

// dirtyScanner is a Scanner with every field set to something other than its zero value, as
// no walk leaves it, so that a Reset that forgets a field (one added later) is caught.
func dirtyScanner(t *testing.T) *Scanner {
	t.Helper()
	s := new(Scanner)
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		setNonZero(t, reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
	}
	return s
}

func setNonZero(t *testing.T, f reflect.Value) {
	switch f.Kind() {
	case reflect.Int, reflect.Int32, reflect.Int64:
		f.SetInt(3)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.SetUint(3)
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), 1, 4))
	case reflect.Pointer:
		f.Set(reflect.New(f.Type().Elem()))
	case reflect.Struct:
		for i := range f.NumField() {
			setNonZero(t, f.Field(i))
		}
	default:
		t.Fatalf("setNonZero: a field of kind %s: teach the test to set it", f.Kind())
	}
}

// TestResetClearsEveryField holds Reset, ResetRecordingWS, ResetLine and Restart, which store
// field by field (no composite literal: see start), to the literal they stand for.
func TestResetClearsEveryField(t *testing.T) {
	data := []byte(`{"a": 1}`)
	cases := []struct {
		name string
		do   func(s *Scanner)
		want func(s *Scanner) Scanner
	}{
		{"Reset", func(s *Scanner) { s.Reset(data, 7) }, func(s *Scanner) Scanner {
			return Scanner{data: data, maxDepth: 7, wsMask: wsBits, stack: s.stack[:0], runs: s.runs[:0]}
		}},
		{"ResetRecordingWS", func(s *Scanner) { s.ResetRecordingWS(data, 7) }, func(s *Scanner) Scanner {
			return Scanner{data: data, maxDepth: 7, wsMask: wsBits, recording: true, maxRuns: len(data)/maxRunBytes + 16,
				stack: s.stack[:0], runs: s.runs[:0]}
		}},
		{"ResetLine", func(s *Scanner) { s.ResetLine(data, 7) }, func(s *Scanner) Scanner {
			return Scanner{data: data, maxDepth: 7, wsMask: wsBits &^ (1 << '\n'), recording: true,
				maxRuns: len(data)/maxRunBytes + 16, stack: s.stack[:0], runs: s.runs[:0]}
		}},
		{"Restart", func(s *Scanner) { s.Restart() }, func(s *Scanner) Scanner {
			return Scanner{data: s.data, maxDepth: 3, wsMask: 3, recording: true, maxRuns: 3, stack: s.stack[:0], runs: s.runs[:0]}
		}},
	}
	for _, c := range cases {
		s := dirtyScanner(t)
		c.do(s)
		if want := c.want(s); !reflect.DeepEqual(*s, want) {
			t.Errorf("%s left %+v, want %+v", c.name, *s, want)
		}
	}
}
