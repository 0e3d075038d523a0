package apierror_test

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/dystopic/normalizer/pkg/agent/apierror"
)

func ExampleErrorForStatus() {
	err := apierror.ErrorForStatus(404, "Run not found", []byte(`{"detail":"Run not found"}`))
	err = fmt.Errorf("export run: %w", err)

	var notFound *apierror.NotFoundError
	var api *apierror.APIError
	fmt.Println(errors.As(err, &notFound))
	fmt.Println(errors.As(err, &api), api.StatusCode)
	fmt.Println(errors.Is(err, apierror.ErrDystopic))
	fmt.Println(api)
	// Output:
	// true
	// true 404
	// true
	// Dystopic API error 404: Run not found
}

func ExampleRateLimitError() {
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"7"}}}
	err := apierror.FromResponse(resp, []byte(`{"detail":"Too many reviews"}`), time.Now())

	var rl *apierror.RateLimitError
	if errors.As(err, &rl) {
		fmt.Println(rl.RetryAfterOr(30 * time.Second))
	}
	fmt.Println(err)
	// Output:
	// 7s
	// Dystopic API error 429: Too many reviews
}
