// Package sdkcorpus checks the porting advice against results built from the real objects of
// the SDKs porters use.
//
// testdata holds one case per NAME: NAME.input.json, the bytes a handler sends (an SDK's own
// object serialized the way porters serialize it), NAME.case.json, its true source and what a
// careful platform engineer expects of it, and the goldens of its explain view, NAME.golden.json
// (what `normalizer normalize --explain` prints) and NAME.golden.txt (the text report). The
// inputs and case files are written by the Node program under gen, from the pinned packages of
// gen/package-lock.json; scripts/sdk-corpus.sh regenerates them, and a test fails when they
// differ from what the program writes. The package has no code of its own: its tests are the
// checks, each a class of mistake that advice must not make (see advice_test.go).
package sdkcorpus
