package sdkcorpus_test

import (
	"bytes"

	"github.com/dystopic/normalizer/internal/batch"
	"github.com/dystopic/normalizer/internal/report"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

// explained is the explain view of one input, as the command line prints it.
type explained struct {
	JSON []byte // what `normalizer normalize --explain` prints: the record with diagnostics, or the error object
	Text []byte // what `normalizer normalize --format text` prints, the input named name
}

var explainNormalizer = porting.New(normalize.WithExplain())

// explain is the one call from these tests into the advice (pkg/porting): every check and
// golden file reads what it returns.
func explain(name string, raw []byte) explained {
	out, _ := batch.AppendLine(nil, explainNormalizer, raw)
	var buf bytes.Buffer
	if res, err := explainNormalizer.Normalize(raw); err != nil {
		report.Rejection(&buf, name, err)
	} else {
		report.Record(&buf, name, res)
	}
	return explained{JSON: out, Text: buf.Bytes()}
}
