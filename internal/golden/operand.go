package golden

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// OperandError is an operand of Check that could not be checked: what was found instead of a
// directory or a NAME.input.json file, or the I/O error that stopped its check.
type OperandError struct {
	// Operand is as given; a symbolic link to a directory has a separator appended (it is
	// walked through that path).
	Operand string
	Err     error
}

func (e *OperandError) Error() string { return e.Operand + ": " + e.Err.Error() }

func (e *OperandError) Unwrap() error { return e.Err }

// target is one operand: a directory to walk, or the input file of one case.
type target struct {
	path string
	abs  string // absolute, links resolved: for finding operands that another one covers
	dir  bool
}

// resolve looks at every operand before anything is checked, so a typo in the last one
// fails at once rather than after pages of output. An operand that another one already
// covers (the same path twice, a case or a directory inside a directory operand) is dropped,
// so each case is checked, counted and updated once.
func resolve(operands []string) ([]target, error) {
	all := make([]target, 0, len(operands))
	for _, op := range operands {
		t, err := resolveOne(op)
		if err != nil {
			return nil, &OperandError{Operand: op, Err: err}
		}
		all = append(all, t)
	}
	var kept []target
	for i, t := range all {
		if !coveredByOther(all, i) {
			kept = append(kept, t)
		}
	}
	return kept, nil
}

const wantOperand = "expected a directory or a NAME.input.json file"

// resolveOne says whether op is a directory or a case's input file, and if neither, what it
// is instead.
func resolveOne(op string) (target, error) {
	st, err := os.Stat(op)
	if errors.Is(err, fs.ErrNotExist) {
		return target{}, fmt.Errorf("no such file or directory; %s", wantOperand)
	}
	if err != nil {
		return target{}, err
	}
	abs, err := realPath(op)
	if err != nil {
		return target{}, err
	}
	t := target{path: op, abs: abs, dir: st.IsDir()}
	if t.dir {
		t.path = followRoot(op)
		return t, nil
	}
	if !st.Mode().IsRegular() {
		return t, fmt.Errorf("found %s; %s", fileKind(st.Mode()), wantOperand)
	}
	name := filepath.Base(op)
	switch {
	case strings.HasSuffix(name, InputSuffix):
		return t, nil
	case strings.HasSuffix(name, GoldenSuffix):
		in := strings.TrimSuffix(op, GoldenSuffix) + InputSuffix
		return t, fmt.Errorf("found a golden file; %s: name the case's input, %s", wantOperand, in)
	case misnamed(name, InputSuffix) != "":
		return t, fmt.Errorf("found a name ending in %s; %s (the suffix is case-sensitive): rename it %s",
			name[len(name)-len(InputSuffix):], wantOperand, misnamed(name, InputSuffix))
	}
	return t, fmt.Errorf("found a file not named NAME.input.json; %s", wantOperand)
}

// realPath is path made absolute with its symbolic links resolved, to tell when two
// operands name the same file or directory.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// followRoot makes a directory operand that is a symbolic link walkable: filepath.WalkDir
// does not follow a link at its root (it would report the link itself as the only file), but
// the system resolves a path that ends in a separator.
func followRoot(dir string) string {
	st, err := os.Lstat(dir)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 || os.IsPathSeparator(dir[len(dir)-1]) {
		return dir
	}
	return dir + string(filepath.Separator)
}

// coveredByOther reports whether another operand already checks all[i]: an earlier one with
// the same path, or a directory that holds it.
func coveredByOther(all []target, i int) bool {
	for j, o := range all {
		switch {
		case j == i:
		case o.abs == all[i].abs:
			if j < i {
				return true
			}
		case o.dir && within(all[i].abs, o.abs):
			return true
		}
	}
	return false
}

// within reports whether path lies under dir (both absolute and clean).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// fileKind names what a file that is not a regular file is, for errors.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file (" + m.Type().String() + ")"
}
