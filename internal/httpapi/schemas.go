package httpapi

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"sort"
	"strings"

	"github.com/labstack/echo/v4"
)

const schemaSuffix = ".schema.json"

// schemaSet is the JSON Schemas, read once at start: NAME.schema.json is served under its
// file name, which the schemas' relative $refs use, and as /v1/schemas/NAME.
type schemaSet struct {
	files map[string][]byte
	index []byte
}

type schemaEntry struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

func loadSchemas(fsys fs.FS) (*schemaSet, error) {
	set := &schemaSet{files: map[string][]byte{}}
	var entries []schemaEntry
	if fsys != nil {
		paths, err := fs.Glob(fsys, "*"+schemaSuffix)
		if err != nil {
			return nil, fmt.Errorf("list schemas: %w", err)
		}
		sort.Strings(paths)
		for _, p := range paths {
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return nil, fmt.Errorf("read schema %s: %w", p, err)
			}
			if !json.Valid(b) {
				return nil, fmt.Errorf("schema %s is not valid JSON", p)
			}
			name := strings.TrimSuffix(p, schemaSuffix)
			set.files[name] = b
			entries = append(entries, schemaEntry{Name: name, URL: routeSchemaIndex + "/" + p})
		}
	}
	index, err := json.Marshal(struct {
		Schemas []schemaEntry `json:"schemas"`
	}{append([]schemaEntry{}, entries...)})
	if err != nil {
		return nil, fmt.Errorf("schema index: %w", err)
	}
	set.index = index
	return set, nil
}

func (s *Server) handleSchemaIndex(c echo.Context) error {
	return writeJSON(c, http.StatusOK, s.schemas.index)
}

func (s *Server) handleSchema(c echo.Context) error {
	b, err := s.schemaOf(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentType, "application/schema+json")
	return c.Blob(http.StatusOK, "application/schema+json", b)
}

// schemaOptions is OPTIONS on /v1/schemas/:name: a name no schema has is 404, as GET answers
// it (OPTIONS asks which methods the resource has, and there is no resource); a known one is
// options'. A method the route never allows (POST, PUT...) stays 405 whatever the name: the
// router answers it before any name is looked up, and no name would make it allowed.
func (s *Server) schemaOptions(options echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, err := s.schemaOf(c); err != nil {
			return err
		}
		return options(c)
	}
}

// schemaOf is the schema the request's :name names, with or without the file suffix, or the
// NotFound error that says it has none.
func (s *Server) schemaOf(c echo.Context) ([]byte, error) {
	name := strings.TrimSuffix(c.Param("name"), schemaSuffix)
	b, ok := s.schemas.files[name]
	if !ok {
		return nil, &apiError{class: ClassNotFound, msg: "no schema named " + fmt.Sprintf("%q", name) + "; the list is at GET " + routeSchemaIndex}
	}
	return b, nil
}
