package porting

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

// The readers of JSON values every shape uses: a member of an object, an element of an array,
// what kind of text a value holds. Each reads the bytes it is given with a scanner of its own and
// keeps nothing.

// shortString is the text of v when v is a string token shorter than max bytes, else "".
func shortString(v []byte, max int) string { return string(shortToken(v, max)) }

// shortToken is shortString without the copy, for comparing: nil when v is no string token
// shorter than max bytes. A hostile value of megabytes is not decoded for a hint or a note.
func shortToken(v []byte, max int) []byte {
	if len(v) < 2 || v[0] != '"' || len(v) >= max {
		return nil
	}
	return jsonscan.StringText(v, jsonscan.Span{Start: 0, End: len(v)})
}

// partsHold says whether the list of content blocks or parts holds text (a non-empty "text",
// in a block of type "text" or a part without a type) and tool calls (a "tool_use" block, a
// part with "function_call" or "functionCall").
func partsHold(list []byte, maxDepth int) (text, calls bool) {
	var s jsonscan.Scanner
	s.Reset(list, maxDepth)
	if s.Peek() != jsonscan.Array {
		return false, false
	}
	for ok := s.ArrayStart(); ok && s.Err() == nil; ok = s.ArrayNext() {
		v := s.SkipValue()
		if !v.Present() || list[v.Start] != '{' {
			continue
		}
		part := list[v.Start:v.End]
		typ := shortString(member(part, "type", maxDepth), 16)
		text = text || (typ == "" || typ == "text") && textKind(member(part, "text", maxDepth)) == jsonscan.String
		calls = calls || typ == "tool_use" || isObject(member(part, "function_call", maxDepth)) || isObject(member(part, "functionCall", maxDepth))
	}
	return text, calls
}

// textOf says where the text is in a value named name: the value itself when it is a non-empty
// string, the text of its text parts when it is a non-empty list (of content parts or blocks),
// "" when it holds no text.
func textOf(v []byte, name string) string {
	switch textKind(v) {
	case jsonscan.String:
		return name
	case jsonscan.Array:
		return "the text of the text parts in " + name
	}
	return ""
}

// textKind is String for a non-empty string, Array for a non-empty list, None for anything else.
func textKind(v []byte) jsonscan.Kind {
	switch {
	case len(v) > 2 && v[0] == '"':
		return jsonscan.String
	case isList(v) && bytes.TrimLeft(v[1:], " \t\r\n")[0] != ']':
		return jsonscan.Array
	}
	return jsonscan.None
}

func isObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }

func isList(v []byte) bool { return len(v) > 0 && v[0] == '[' }

// member is the last value of the key key in the object obj, or nil when obj is no object or
// has no such key.
func member(obj []byte, key string, maxDepth int) []byte {
	var s jsonscan.Scanner
	s.Reset(obj, maxDepth)
	if s.Peek() != jsonscan.Object {
		return nil
	}
	var last []byte
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		match := string(s.KeyName()) == key
		if v := s.SkipValue(); match && v.Present() {
			last = obj[v.Start:v.End]
		}
	}
	return last
}

// firstElement is the first element of the array arr, or nil.
func firstElement(arr []byte, maxDepth int) []byte {
	var s jsonscan.Scanner
	s.Reset(arr, maxDepth)
	if s.Peek() != jsonscan.Array || !s.ArrayStart() || s.Peek() == jsonscan.None {
		return nil
	}
	v := s.SkipValue()
	return arr[v.Start:v.End]
}

// lastElement is the last element of the array arr, or nil.
func lastElement(arr []byte, maxDepth int) []byte {
	return lastWhere(arr, maxDepth, func([]byte) bool { return true })
}

// lastWhere is the last element of the array arr that keep accepts, or nil.
func lastWhere(arr []byte, maxDepth int, keep func([]byte) bool) []byte {
	var s jsonscan.Scanner
	s.Reset(arr, maxDepth)
	if s.Peek() != jsonscan.Array {
		return nil
	}
	var last []byte
	for ok := s.ArrayStart(); ok && s.Err() == nil; ok = s.ArrayNext() {
		if v := s.SkipValue(); v.Present() && keep(arr[v.Start:v.End]) {
			last = arr[v.Start:v.End]
		}
	}
	return last
}

// listKeys names the first keys of an object that has count of them.
func listKeys(keys []string, count int) string {
	if count == 0 {
		return "no keys"
	}
	quoted := make([]string, 0, len(keys))
	for _, k := range keys {
		quoted = append(quoted, strconv.Quote(jsonscan.Cut(k, 40)))
	}
	if count == 1 {
		return "the key " + quoted[0]
	}
	out := "the keys " + strings.Join(quoted, ", ")
	if count > len(keys) {
		out += " and " + strconv.Itoa(count-len(keys)) + " more"
	}
	return out
}

// eachElement calls f with the index and the bytes of each element of the array arr, until f
// returns false; nothing when arr is no array.
func eachElement(arr []byte, maxDepth int, f func(i int, v []byte) bool) {
	var s jsonscan.Scanner
	s.Reset(arr, maxDepth)
	if s.Peek() != jsonscan.Array {
		return
	}
	i := 0
	for ok := s.ArrayStart(); ok && s.Err() == nil; ok = s.ArrayNext() {
		if v := s.SkipValue(); v.Present() && !f(i, arr[v.Start:v.End]) {
			return
		}
		i++
	}
}

// textParts is the index of the first element of the list of content parts or blocks list
// whose "type" is typ ("" for a part without one, as some sources' parts are) and whose "text"
// is a non-empty string, and how many such elements there are; a part with "thought": true
// holds the model's thoughts and does not count. first is -1 when there is none.
func textParts(list []byte, typ string, maxDepth int) (first, n int) {
	first = -1
	eachElement(list, maxDepth, func(i int, v []byte) bool {
		if shortString(member(v, "type", maxDepth), 32) != typ || blank(member(v, "text", maxDepth)) ||
			string(member(v, "thought", maxDepth)) == "true" {
			return true
		}
		if n++; first < 0 {
			first = i
		}
		return true
	})
	return first, n
}
