package jsonscan

import "testing"

// TestBlockScanPortable runs the block scan tests with the portable classifier, which is what
// CPUs without AVX2 (and other architectures) use.
func TestBlockScanPortable(t *testing.T) {
	if !useAVX2 {
		t.Log("this CPU has no AVX2: the other tests already ran the portable classifier")
	}
	saved := useAVX2
	useAVX2 = false
	defer func() { useAVX2 = saved }()
	t.Run("AgreesWithCarefulScan", TestBlockScanAgreesWithCarefulScan)
	t.Run("BackslashRuns", TestBlockScanBackslashRuns)
	t.Run("UTF8", TestBlockScanUTF8)
}
