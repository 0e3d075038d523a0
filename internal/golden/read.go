package golden

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// readCase reads a case file, which must be a regular file (a symbolic link counts as what it
// points to) of at most limit bytes (limit > 0; 0 is no limit). It is opened without waiting
// (a named pipe's open would wait for a writer) and looked at before it is read, so a pipe, a
// socket or a device is refused unread, and so is a file known to be over the limit; one that
// grows while it is read is read no further than limit+1 bytes.
//
// The error is fs.ErrNotExist for a file that is not there (a link to nothing is there: it is a
// *caseError), or a *caseError: what is wrong with the file, for a failed case's line.
func readCase(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &caseError{why: pathless(err).Error()}
	}
	if !st.Mode().IsRegular() {
		return nil, &caseError{why: "found " + fileKind(st.Mode()) + "; expected a regular file"}
	}
	if limit > 0 && st.Size() > limit {
		return nil, &caseError{why: moreThan(limit), tooLarge: true}
	}
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	b, err := io.ReadAll(r)
	switch {
	case err != nil:
		return nil, &caseError{why: "cannot be read: " + pathless(err).Error()}
	case limit > 0 && int64(len(b)) > limit:
		return nil, &caseError{why: moreThan(limit), tooLarge: true}
	}
	return b, nil
}

// caseError is what is wrong with a case file that cannot be read: why, without the path.
type caseError struct {
	why      string
	tooLarge bool // over the limit
}

func (e *caseError) Error() string { return e.why }

func moreThan(limit int64) string {
	return fmt.Sprintf("more than %d bytes, over the limit of %d bytes for a case file", limit, limit)
}

// openError says why path could not be opened: fs.ErrNotExist for a file that is not there;
// else a *caseError naming a link that leads nowhere or round in a loop, or the system's
// reason (permission denied).
func openError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		target, lerr := os.Readlink(path)
		if lerr != nil {
			return fs.ErrNotExist
		}
		return &caseError{why: fmt.Sprintf("found a symbolic link to %s, which does not exist", target)}
	}
	if errors.Is(err, syscall.ELOOP) {
		return &caseError{why: "found a symbolic link loop (too many levels of symbolic links)"}
	}
	return &caseError{why: "cannot be opened: " + pathless(err).Error()}
}

// pathless is err without the operation and path that an *fs.PathError adds: the failed
// case's line names the file already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
