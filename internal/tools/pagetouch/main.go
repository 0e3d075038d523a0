//go:build linux

// Command pagetouch measures what memory new to a process costs: it maps an anonymous region,
// asks for transparent huge pages or for none, writes one byte to each 4 KiB page and prints
// the time and the page faults it took; with -populate, the kernel faults the region in first
// (MADV_POPULATE_WRITE), one call instead of a trap per page. The batch path's buffers are
// such regions, and the cost depends on the machine: on a virtual machine whose guest reports
// free memory to its host (virtio-balloon free page reporting), a huge page first touched
// after a pause of a few seconds is one the host must back again. Compare both kinds, right
// after another run and after a pause:
//
//	go build -o /tmp/pagetouch ./internal/tools/pagetouch
//	for i in 1 2 3; do sleep 4; /tmp/pagetouch -huge; /tmp/pagetouch -huge; sleep 4; /tmp/pagetouch; /tmp/pagetouch; done
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

const hugePage = 2 << 20

// thpMode is the system's transparent huge page setting, the bracketed word of
// /sys/kernel/mm/transparent_hugepage/enabled, or "unknown".
func thpMode() string {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return "unknown"
	}
	s := string(b)
	if i, j := strings.IndexByte(s, '['), strings.IndexByte(s, ']'); 0 <= i && i < j {
		return s[i+1 : j]
	}
	return "unknown"
}

func main() {
	mib := flag.Int("mib", 24, "MiB to touch")
	huge := flag.Bool("huge", false, "ask for transparent huge pages (MADV_HUGEPAGE)")
	populate := flag.Bool("populate", false, "fault the region in with one MADV_POPULATE_WRITE before touching it")
	flag.Parse()
	if maxMiB := (math.MaxInt - hugePage) >> 20; *mib <= 0 || *mib > min(1<<20, maxMiB) {
		fmt.Fprintf(os.Stderr, "pagetouch: -mib must be 1 to %d\n", min(1<<20, maxMiB))
		os.Exit(2)
	}
	n := *mib << 20
	// One huge page more than asked, so that the region can start on a huge page's boundary.
	m, err := unix.Mmap(-1, 0, n+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pagetouch:", err)
		os.Exit(1)
	}
	off := int(-uintptr(unsafe.Pointer(&m[0])) & (hugePage - 1))
	m = m[off : off+n]
	// Asked either way: where THP is set to "always", a region that does not ask is given
	// huge pages too, and so would -huge=false.
	advice := unix.MADV_NOHUGEPAGE
	if *huge {
		advice = unix.MADV_HUGEPAGE
	}
	if err := unix.Madvise(m, advice); err != nil {
		fmt.Fprintln(os.Stderr, "pagetouch: madvise:", err)
		os.Exit(1)
	}
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	start := time.Now()
	if *populate {
		if err := unix.Madvise(m, unix.MADV_POPULATE_WRITE); err != nil {
			fmt.Fprintln(os.Stderr, "pagetouch: madvise:", err)
			os.Exit(1)
		}
	}
	for i := 0; i < len(m); i += 4096 {
		m[i] = 1
	}
	took := time.Since(start)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	fmt.Printf("%d MiB huge=%v populate=%v (THP: %s): %.2f ms, %.2f ms per MiB, %d page faults\n",
		*mib, *huge, *populate, thpMode(), took.Seconds()*1e3, took.Seconds()*1e3/float64(*mib), after.Minflt-before.Minflt)
}
