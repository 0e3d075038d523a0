// Package response turns what an agent handler returns into the platform's wire response: the
// Go side of the SDK's build_response. Check runs the result through the normalizer too, so a
// porter's own tests see the soft warnings the platform will record.
//
// Build accepts, in this order of precedence:
//
//   - nil, or a nil pointer or interface: rejected, as Python's None.
//   - A string (or a type whose kind is string): wrapped as {"final_response": s}.
//   - json.RawMessage or []byte: one JSON value. An object must carry final_response and passes
//     through whole (messages, metadata and other keys as written, compacted); a JSON string is
//     the bare-string return; anything else is rejected.
//   - A map with string keys: encoded with encoding/json (keys sorted) and treated as the raw
//     object above.
//   - A struct with a field whose JSON name is "final_response": encoded with encoding/json, so
//     a typed response keeps its messages and metadata.
//   - Any other value is probed for FinalResponse, FinalOutput, Output and Message, in that
//     order, as an exported field or a method without arguments (returning one value, or a
//     value and an error); the first name present is used. Its value must be a string, a
//     fmt.Stringer, or a pointer to one, and is wrapped as final_response. This is the SDK's
//     attribute probe: it covers agent SDK result types that carry the final text.
//
// An empty or nil final_response is a *normalize.ResponseShapeError with the contract's
// message (normalize.EmptyResponseMessage); other shape problems are one too, with a message
// that says what was found.
package response

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// ProbeOrder is the order in which Build looks for the final answer on a value that is not a
// string, raw JSON or a map.
var ProbeOrder = [...]string{"FinalResponse", "FinalOutput", "Output", "Message"}

// Build returns the wire response for v, compact JSON.
func Build(v any) (json.RawMessage, error) {
	switch x := v.(type) {
	case nil:
		return nil, emptyError("null")
	case string:
		return wrap(x)
	case json.RawMessage:
		return fromRaw(x)
	case []byte:
		return fromRaw(x)
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil, emptyError("null")
		}
		rv = rv.Elem()
	}
	switch {
	case rv.Kind() == reflect.String:
		return wrap(rv.String())
	case rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8:
		return fromRaw(rv.Bytes())
	case rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String,
		rv.Kind() == reflect.Struct && hasFinalResponseField(rv.Type()):
		raw, err := encode(rv.Interface())
		if err != nil {
			return nil, fmt.Errorf("response: encode %s: %w", rv.Type(), err)
		}
		if rv.Kind() == reflect.Struct && !hasKey(raw, "final_response") {
			return nil, emptyError("empty string") // the field is there: omitempty dropped it
		}
		return fromRaw(raw)
	}
	return probe(rv)
}

// Check builds the response for v and normalizes it as the platform does: the result's
// SoftWarnings are the ones the run will carry. A rejection is the error Build or
// normalize.Normalize returns.
func Check(v any, opts ...normalize.Option) (*normalize.Result, error) {
	raw, err := Build(v)
	if err != nil {
		return nil, err
	}
	return normalize.Normalize(raw, opts...)
}

func wrap(s string) (json.RawMessage, error) {
	if s == "" {
		return nil, emptyError("empty string")
	}
	return encode(struct {
		FinalResponse string `json:"final_response"`
	}{s})
}

// fromRaw checks one JSON value given as bytes and returns it compacted.
func fromRaw(raw []byte) (json.RawMessage, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("response: the raw JSON is not valid: %w", err)
	}
	out := buf.Bytes()
	if len(out) == 0 {
		return nil, fmt.Errorf("response: the raw JSON is empty; expected an object with %q", "final_response")
	}
	switch out[0] {
	case '"':
		var s string
		_ = json.Unmarshal(out, &s) // valid: Compact accepted it
		return wrap(s)
	case 'n':
		return nil, emptyError("null")
	case '{':
		return out, checkObject(out)
	}
	kind := map[byte]string{'[': "an array", 't': "a boolean", 'f': "a boolean"}[out[0]]
	if kind == "" {
		kind = "a number"
	}
	return nil, &normalize.ResponseShapeError{Got: strings.TrimPrefix(strings.TrimPrefix(kind, "an "), "a "),
		Want: "string or object", Problem: "response: the raw JSON is " + kind + `; expected a non-empty string or an object with "final_response"`}
}

// checkObject checks final_response in a JSON object; as in the platform's parser, the last
// of duplicate keys wins.
func checkObject(obj []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(obj, &keys); err != nil {
		return fmt.Errorf("response: decode the object: %w", err)
	}
	fr, ok := keys["final_response"]
	if !ok {
		msg := `response: the object has no "final_response" key; expected {"final_response": "<the agent's answer>", ...}`
		for _, alt := range []string{"final_output", "output", "message"} {
			if _, has := keys[alt]; has {
				msg += fmt.Sprintf(`. It has %q: put the answer under "final_response"`, alt)
				break
			}
		}
		return &normalize.ResponseShapeError{Path: "final_response", Got: "object without final_response", Want: "object with final_response", Problem: msg}
	}
	switch fr[0] {
	case 'n':
		return emptyError("null")
	case '"':
		if string(fr) == `""` {
			return emptyError("empty string")
		}
		return nil
	}
	kind := map[byte]string{'{': "object", '[': "array", 't': "boolean", 'f': "boolean"}[fr[0]]
	if kind == "" {
		kind = "number"
	}
	return &normalize.ResponseShapeError{Path: "final_response", Got: kind, Want: "non-empty string",
		Problem: fmt.Sprintf("response: final_response is a JSON %s (%.40s); expected a non-empty string", kind, fr)}
}

func emptyError(got string) error {
	return &normalize.ResponseShapeError{Path: "final_response", Got: got, Want: "non-empty string", Problem: normalize.EmptyResponseMessage}
}

// encode marshals v without HTML escaping, so "<" stays "<" as in Python's json.dumps.
func encode(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// hasFinalResponseField reports whether struct type t encodes a "final_response" key.
// hasKey reports whether the JSON object obj has key.
func hasKey(obj []byte, key string) bool {
	var keys map[string]json.RawMessage
	if json.Unmarshal(obj, &keys) != nil {
		return false
	}
	_, ok := keys[key]
	return ok
}

func hasFinalResponseField(t reflect.Type) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case name == "final_response" && f.IsExported():
			return true
		case name == "" && f.Anonymous && f.Type.Kind() == reflect.Struct && hasFinalResponseField(f.Type):
			return true
		}
	}
	return false
}

var errorType = reflect.TypeFor[error]()

// lookup finds name on v as a method without arguments or an exported field.
func lookup(v reflect.Value, name string) (func() (reflect.Value, error), bool) {
	if m := v.MethodByName(name); m.IsValid() && m.Type().NumIn() == 0 {
		switch t := m.Type(); {
		case t.NumOut() == 1:
			return func() (reflect.Value, error) { return m.Call(nil)[0], nil }, true
		case t.NumOut() == 2 && t.Out(1) == errorType:
			return func() (reflect.Value, error) {
				out := m.Call(nil)
				err, _ := out[1].Interface().(error)
				return out[0], err
			}, true
		}
	}
	s := v
	for s.Kind() == reflect.Pointer && !s.IsNil() {
		s = s.Elem()
	}
	if s.Kind() == reflect.Struct {
		if f, ok := s.Type().FieldByName(name); ok && f.IsExported() {
			return func() (reflect.Value, error) {
				fv, err := s.FieldByIndexErr(f.Index)
				if err != nil {
					return reflect.Value{}, nil // behind a nil embedded pointer: absent, like nil
				}
				return fv, nil
			}, true
		}
	}
	return nil, false
}

// probe extracts the final answer from a value of another type.
func probe(rv reflect.Value) (json.RawMessage, error) {
	pv := rv
	if rv.Kind() != reflect.Pointer { // an addressable copy, so pointer methods count too
		pv = reflect.New(rv.Type())
		pv.Elem().Set(rv)
	}
	for _, name := range ProbeOrder {
		get, ok := lookup(pv, name)
		if !ok {
			continue
		}
		val, err := get()
		if err != nil {
			return nil, fmt.Errorf("response: %s.%s: %w", rv.Type(), name, err)
		}
		text, err := textOf(val, rv.Type(), name)
		if err != nil {
			return nil, err
		}
		return wrap(text)
	}
	return nil, &normalize.ResponseShapeError{Got: rv.Type().String(), Want: "string, object with final_response, or value with a final answer",
		Problem: fmt.Sprintf("response: %s has none of %s (an exported field or a method without arguments); return a string, a map with \"final_response\", or a value that has one",
			rv.Type(), strings.Join(ProbeOrder[:], ", "))}
}

var stringerType = reflect.TypeFor[fmt.Stringer]()

// textOf returns the text a probed value holds.
func textOf(v reflect.Value, owner reflect.Type, name string) (string, error) {
	for {
		if !v.IsValid() {
			return "", emptyError("null")
		}
		if v.Kind() == reflect.String {
			return v.String(), nil
		}
		if v.Type().Implements(stringerType) && (v.Kind() != reflect.Pointer && v.Kind() != reflect.Interface || !v.IsNil()) {
			return v.Interface().(fmt.Stringer).String(), nil
		}
		if v.Kind() != reflect.Pointer && v.Kind() != reflect.Interface {
			return "", &normalize.ResponseShapeError{Path: "final_response", Got: v.Type().String(), Want: "non-empty string",
				Problem: fmt.Sprintf("response: %s.%s is a %s; expected a string, a fmt.Stringer or a pointer to one", owner, name, v.Type())}
		}
		if v.IsNil() {
			return "", emptyError("null")
		}
		v = v.Elem()
	}
}

// IsEmpty reports whether err is the contract's rejection of an empty or nil final_response.
func IsEmpty(err error) bool {
	var shape *normalize.ResponseShapeError
	return errors.As(err, &shape) && shape.Error() == normalize.EmptyResponseMessage
}
