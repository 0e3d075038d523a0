package porting

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// python is Python's own way of writing a value, str() and repr(), sent for JSON.
var python = register(source{
	name: "Python",
	syntax: []syntaxShape{
		{found: normalize.FoundSingleQuote, reason: func(normalize.Found) string {
			return "unexpected single quote; JSON strings and keys take double quotes " +
				"(a Python dict printed with str() or repr() is not JSON: serialize it with json.dumps)"
		}},
		{found: normalize.FoundLiteral, reason: func(f normalize.Found) string {
			return "found Python's " + f.Word + ", which JSON writes " + jsonscan.LiteralJSON(f.Word) +
				" (serialize with json.dumps, not str())"
		}},
		{found: normalize.FoundNonFinite, reason: func(f normalize.Found) string {
			return "found " + f.Word + ", which JSON does not have (Python's json.dumps writes NaN and Infinity " +
				"unless allow_nan=False): " + jsonscan.NonFiniteFix
		}},
	},
	printed: []printedShape{{rank: 5, keys: resultAttrs[:], note: resultRepr}},
	placeholders: []placeholder{
		{text: "None", says: "what Python's str(None) prints" + missingValue},
		{text: "nan", says: "a float that is not a number, as Python's str(float('nan')) prints it"},
	},
})
