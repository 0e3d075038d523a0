// Package schemacheck compiles the embedded contract schemas with a JSON Schema 2020-12
// validator, so that tests and tools check documents against the very files that are served.
package schemacheck

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/dystopic/normalizer/schemas"
)

var (
	once     sync.Once
	compiled map[string]*jsonschema.Schema
	errLoad  error
)

func load() {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	for _, name := range schemas.Names() {
		raw, err := schemas.FS.ReadFile(name)
		if err != nil {
			errLoad = fmt.Errorf("read schema %s: %w", name, err)
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			errLoad = fmt.Errorf("parse schema %s: %w", name, err)
			return
		}
		if err := c.AddResource(schemas.BaseURI+name, doc); err != nil {
			errLoad = fmt.Errorf("add schema %s: %w", name, err)
			return
		}
	}
	compiled = map[string]*jsonschema.Schema{}
	for _, name := range schemas.Names() {
		sch, err := c.Compile(schemas.BaseURI + name)
		if err != nil {
			errLoad = fmt.Errorf("compile schema %s: %w", name, err)
			return
		}
		compiled[name] = sch
	}
}

// Schema returns the compiled schema of the file name (e.g. "message.schema.json").
func Schema(name string) (*jsonschema.Schema, error) {
	once.Do(load)
	if errLoad != nil {
		return nil, errLoad
	}
	sch, ok := compiled[name]
	if !ok {
		return nil, fmt.Errorf("no schema named %q; have %v", name, schemas.Names())
	}
	return sch, nil
}

// Validate checks the JSON document doc against the schema of the file name.
func Validate(name string, doc []byte) error {
	sch, err := Schema(name)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("decode document: %w", err)
	}
	return sch.Validate(inst)
}
