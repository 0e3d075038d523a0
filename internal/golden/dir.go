package golden

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// dirFiles is what a directory holds under it, sorted out by name. Every file is in exactly
// one list, but for a golden file that has its input, which is in none.
type dirFiles struct {
	inputs   []string // NAME.input.json, in walk order
	orphans  []string // NAME.golden.json or NAME.golden.txt without its input, sorted
	misnamed []string // a case suffix in another letter case: a failure
	ignored  []string // every other file (links to directories too: WalkDir does not follow them)
	unlisted []unlisted
}

// unlisted is a directory under the operand that could not be listed: a failure.
type unlisted struct {
	path string
	err  error
}

// scanDir walks dir and sorts out its files by their names alone: what a case file is (a
// named pipe, a link to nothing) is found when its case is checked, and fails that case only.
// A directory that cannot be listed is recorded, and the walk goes on; the error is the
// operand's own, should it not be there.
func scanDir(dir string) (dirFiles, error) {
	var f dirFiles
	goldens := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if d == nil { // the operand itself
				return err
			}
			f.unlisted = append(f.unlisted, unlisted{path: path, err: err})
			return nil
		}
		name := d.Name()
		switch {
		case d.IsDir():
		case strings.HasSuffix(name, InputSuffix):
			f.inputs = append(f.inputs, path)
		case strings.HasSuffix(name, GoldenSuffix), strings.HasSuffix(name, TextSuffix):
			goldens[path] = true
		case misnamedReason(name) != "":
			f.misnamed = append(f.misnamed, path)
		default:
			f.ignored = append(f.ignored, path)
		}
		return nil
	})
	if err != nil {
		return dirFiles{}, err
	}
	for _, in := range f.inputs {
		for _, suffix := range goldenSuffixes {
			delete(goldens, goldenPath(in, suffix))
		}
	}
	for g := range goldens {
		f.orphans = append(f.orphans, g)
	}
	sort.Strings(f.orphans)
	return f, nil
}

// misnamedReason explains why a name that ends in a case suffix in another letter case
// (".input.JSON", ".Golden.json", ".golden.TXT") is not checked, or is "" for any other name.
// The suffixes are matched exactly, as on a case-sensitive file system; such a file is almost
// surely a case that someone meant to be checked, so it is a failure rather than an ignored
// file.
func misnamedReason(name string) string {
	for _, suffix := range []string{InputSuffix, GoldenSuffix, TextSuffix} {
		if fixed := misnamed(name, suffix); fixed != "" {
			return fmt.Sprintf("the name ends in %s, not %s (the suffix is case-sensitive); rename it %s",
				name[len(name)-len(suffix):], suffix, fixed)
		}
	}
	return ""
}

// misnamed is name with suffix spelled right, if name ends in suffix in another letter case;
// else "".
func misnamed(name, suffix string) string {
	n := len(name) - len(suffix)
	if n < 0 || name[n:] == suffix || !strings.EqualFold(name[n:], suffix) {
		return ""
	}
	return name[:n] + suffix
}

// Inputs lists the input files of the cases under dir (NAME.input.json, at any depth), in
// the order Check checks them: the directory's walk order, names sorted. A directory under
// dir that cannot be listed is an error.
func Inputs(dir string) ([]string, error) {
	f, err := scanDir(dir)
	if err != nil {
		return nil, err
	}
	if len(f.unlisted) > 0 {
		return nil, fmt.Errorf("list %s: %w", f.unlisted[0].path, f.unlisted[0].err)
	}
	return f.inputs, nil
}
