package porting

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// syntaxHint gives an InvalidJSON rejection found at text of another kind than JSON the reason
// that says which program writes such text and how to send JSON instead; the scanner's own
// reason says only what the bytes are.
func syntaxHint(e *normalize.InvalidJSONError) {
	var reason string
	switch f := e.Found; f.Kind {
	case normalize.FoundGzip:
		reason = "the input starts with the bytes 1F 8B, the gzip magic: it is compressed; " +
			"expected JSON text (decompress it, or over HTTP send it with Content-Encoding: gzip)"
	case normalize.FoundWide:
		reason = WideReason(f.Wide)
	case normalize.FoundSingleQuote:
		reason = "unexpected single quote; JSON strings and keys take double quotes " +
			"(a Python dict printed with str() or repr() is not JSON: serialize it with json.dumps)"
	case normalize.FoundLiteral:
		reason = "found Python's " + f.Word + ", which JSON writes " + jsonscan.LiteralJSON(f.Word) +
			" (serialize with json.dumps, not str())"
	case normalize.FoundNonFinite:
		reason = "found " + f.Word + ", which JSON does not have (Python's json.dumps writes NaN and Infinity " +
			"unless allow_nan=False): " + jsonscan.NonFiniteFix
	default:
		return
	}
	if e.Found.Key {
		reason += jsonscan.KeyExpected
	}
	e.Reason = reason
}

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
