// Package testkit holds, in the packages below it, what tests and benchmarks share and the
// product never imports: generated corpora (corpus, jsonlgen), meters of heap and CPU time
// (heaptest, benchcpu), golden-file runs (goldenfile), the contract's schemas compiled for
// checks (schemacheck), and an address that refuses connections (refused).
package testkit
