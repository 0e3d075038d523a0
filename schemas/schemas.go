// Package schemas holds the JSON Schema (2020-12) documents of the wire contract: the raw
// handler result, a message, a tool call in both accepted shapes, metadata, the normalized
// record and the error object. They are data, embedded with go:embed; the rules themselves are
// implemented by pkg/normalize and pkg/messages, and tests keep the two in agreement.
package schemas

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// FS holds the schema files at its root, named NAME.schema.json.
//
//go:embed *.schema.json
var FS embed.FS

// BaseURI is the prefix of every schema's $id; a schema refers to another by its file name.
const BaseURI = "https://schemas.dystopic.dev/normalizer/"

// Names lists the schema file names, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(FS, ".")
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".schema.json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}
