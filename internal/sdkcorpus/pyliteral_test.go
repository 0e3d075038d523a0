package sdkcorpus_test

import (
	"encoding/json"
	"strings"
)

// parsePython reads the text Python's str() writes of a value that json.loads made: dicts,
// lists, strings in single or double quotes, numbers, None, True and False. It reports false
// for anything else, so that a final_response that merely starts with "{" is not taken for one.
func parsePython(s string) (any, bool) {
	p := &pyParser{s: s}
	v, ok := p.value()
	p.space()
	return v, ok && p.i == len(p.s)
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \n\t", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) eat(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *pyParser) value() (any, bool) {
	p.space()
	if p.i >= len(p.s) {
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.dict()
	case c == '[':
		return p.list()
	case c == '\'' || c == '"':
		return p.str()
	}
	for word, v := range map[string]any{"None": nil, "True": true, "False": false} {
		if strings.HasPrefix(p.s[p.i:], word) {
			p.i += len(word)
			return v, true
		}
	}
	j := p.i
	for j < len(p.s) && strings.IndexByte("+-.0123456789eE", p.s[j]) >= 0 {
		j++
	}
	if j == p.i {
		return nil, false
	}
	n := json.Number(p.s[p.i:j])
	p.i = j
	return n, true
}

func (p *pyParser) dict() (any, bool) {
	p.i++
	m := map[string]any{}
	if p.eat('}') {
		return m, true
	}
	for {
		k, ok := p.str()
		if !ok || !p.eat(':') {
			return nil, false
		}
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		m[k.(string)] = v
		if p.eat('}') {
			return m, true
		}
		if !p.eat(',') {
			return nil, false
		}
	}
}

func (p *pyParser) list() (any, bool) {
	p.i++
	l := []any{}
	if p.eat(']') {
		return l, true
	}
	for {
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		l = append(l, v)
		if p.eat(']') {
			return l, true
		}
		if !p.eat(',') {
			return nil, false
		}
	}
}

// str reads a string literal as repr writes it: the escapes repr uses are \\, \', \n, \r, \t
// and \xNN, \uNNNN.
func (p *pyParser) str() (any, bool) {
	p.space()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return nil, false
	}
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), true
		case c == '\\' && p.i+1 < len(p.s):
			p.i += 2
			switch e := p.s[p.i-1]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'x', 'u':
				n := 2
				if e == 'u' {
					n = 4
				}
				if p.i+n > len(p.s) {
					return nil, false
				}
				var r rune
				for _, h := range p.s[p.i : p.i+n] {
					r = r*16 + rune(strings.IndexRune("0123456789abcdef", h|0x20))
				}
				b.WriteRune(r)
				p.i += n
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return nil, false
}
