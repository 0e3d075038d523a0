//go:build unix

package batch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dystopic/normalizer/internal/testkit/corpus"
)

// BenchmarkFileInput measures what a file's input costs before any of its lines is normalized:
// impl=map maps it (MapFile, as the command does), reads a byte of every page and drops the
// pages read as the command does; impl=read reads it into a reused buffer of 1 MiB, as a
// stream's input is read. The file is BenchmarkBatch's corpus input, in the page cache. The
// map's cpu-ns/op over BenchmarkBatch's bytes-j1 (the same lines already in memory) is the
// share of the command's -j 1 CPU that the kernel takes to map the file: the floor of its
// system time (sys-ns/op is the kernel's share as getrusage samples it):
//
//	go test ./internal/batch -run '^$' -bench 'FileInput|Batch/input=corpus/impl=bytes-j1'
func BenchmarkFileInput(b *testing.B) {
	data := corpus.Lines(64 << 20)
	page := os.Getpagesize()
	var sum byte // what was read, kept so that no load is left out
	// How the file was written decides how the page cache holds it: in one write, in large
	// folios (as a read from disk leaves it too, on Linux 6.18 and ext4), which are mapped up
	// to 2 MiB a fault; 4 KiB at a time (a program writing through a small buffer), in pages
	// that are mapped 16 a fault.
	for _, written := range []int{len(data), 4 << 10} {
		name := "whole"
		if written < len(data) {
			name = fmt.Sprintf("%dKiB", written>>10)
		}
		path := filepath.Join(b.TempDir(), "corpus.jsonl")
		if err := writeIn(path, data, written); err != nil {
			b.Fatal(err)
		}
		b.Run("written="+name+"/impl=map", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			defer measureCPU(b)()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				m, err := MapFile(f)
				if err != nil {
					b.Fatal(err)
				}
				in := m.Bytes()
				for i := 0; i < len(in); i += page {
					sum += in[i]
					m.Drop(int64(i))
				}
				if err := m.Close(); err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		})
		b.Run("written="+name+"/impl=read", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			defer measureCPU(b)()
			buf := make([]byte, 1<<20)
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				for {
					n, err := f.Read(buf)
					for i := 0; i < n; i += page {
						sum += buf[i]
					}
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				f.Close()
			}
		})
	}
	if sum == 1 { // seldom true; keeps sum alive
		b.Log(sum)
	}
}

// writeIn writes data to a new file at path in writes of size bytes.
func writeIn(path string, data []byte, size int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	for len(data) > 0 {
		n := min(size, len(data))
		if _, err := f.Write(data[:n]); err != nil {
			f.Close()
			return err
		}
		data = data[n:]
	}
	return f.Close()
}
