package httpapi

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// LogWriter batches log lines: a line per request written straight to stderr is one system
// call per request, a visible share of a small request's cost. Lines are flushed every
// interval, when the buffer fills, and by Close; a crash loses at most one interval of lines.
type LogWriter struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

// NewLogWriter starts a LogWriter on w flushing every interval.
func NewLogWriter(w io.Writer, interval time.Duration) *LogWriter {
	l := &LogWriter{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go l.flushEvery(interval)
	return l
}

// Write writes one log line; zerolog writes each event with one call.
func (l *LogWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *LogWriter) flushEvery(interval time.Duration) {
	defer close(l.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_ = l.Flush()
		case <-l.stop:
			return
		}
	}
}

// Flush writes out the buffered lines.
func (l *LogWriter) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Flush()
}

// Close stops the flusher and writes out what is left.
func (l *LogWriter) Close() error {
	close(l.stop)
	<-l.done
	return l.Flush()
}
