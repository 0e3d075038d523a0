// Package tools holds, in the commands below it, what developers run and the product does not
// ship: the soak test (soak), the load benchmark's servers and profiles (loadbench), and the
// generators of docs/codes.md (gencodes) and of JSON-lines corpora (genjsonl), and the
// core and the batch pipeline run a fixed number of times for counting their instructions
// (corecount, batchcount), and what memory new to a process costs to touch (pagetouch).
package tools
