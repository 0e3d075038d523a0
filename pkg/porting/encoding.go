package porting

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// encoding is not a framework: how text of another kind than JSON is stored and sent, by the
// programs that write it (gzip, and UTF-16 as Windows PowerShell and .NET's encoders write it).
var encoding = register(source{
	name: "the input's encoding",
	syntax: []syntaxShape{
		{found: normalize.FoundGzip, reason: func(normalize.Found) string {
			return "the input starts with the bytes 1F 8B, the gzip magic: it is compressed; " +
				"expected JSON text (decompress it, or over HTTP send it with Content-Encoding: gzip)"
		}},
		{found: normalize.FoundWide, reason: func(f normalize.Found) string { return WideReason(f.Wide) }},
	},
})

// WideFound says what was found in an input in UTF-16 or UTF-32, and which programs write
// it, where that is well known.
func WideFound(w jsonscan.Wide) string {
	switch {
	case w.IsUTF16LE() && w.BOM():
		return "the input starts with the bytes " + w.Evidence() +
			", the byte order mark of UTF-16 (little-endian, as Windows PowerShell's Out-File and '>' write)"
	case w.IsUTF16LE():
		return w.Found() + ", as Python's .encode('utf-16-le') and .NET's Encoding.Unicode.GetBytes write it"
	}
	return w.Found()
}

// WideReason is the reason of the rejection of an input in UTF-16 or UTF-32: what was found
// and how to send UTF-8. Windows PowerShell 5.1 writes UTF-16LE with a byte order mark from
// Out-File and '>', and its -Encoding utf8 writes a byte order mark too, which JSON does not
// allow either: the fix names what writes UTF-8 without one. Text without a mark came from an
// encoder called by a program, whose fix is to ask it for UTF-8.
func WideReason(w jsonscan.Wide) string {
	fix := w.Fix()
	switch {
	case w.IsUTF16LE() && w.BOM():
		fix += " (PowerShell 7: Out-File -Encoding utf8NoBOM; Windows PowerShell 5.1, whose -Encoding utf8 adds a byte order mark: " +
			"[IO.File]::WriteAllText(<path>, <text>))"
	case !w.BOM():
		fix += " (Python: .encode('utf-8'); .NET: Encoding.UTF8.GetBytes)"
	}
	return WideFound(w) + "; expected UTF-8: " + fix + ", or convert the file: " + w.Convert()
}
