package httpapi

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPI is the OpenAPI 3.1 document of the API; a test holds it to the router's routes.
//
//go:embed openapi.json
var openAPI []byte

func (s *Server) handleOpenAPI(c echo.Context) error {
	return writeJSON(c, http.StatusOK, openAPI)
}
