package jsonscan

import "testing"

// TestWordScan runs the string scan tests with useAVX2 off, as on CPUs without AVX2 and other
// architectures: scanWords must agree with the careful scan just as scanBlocks does.
func TestWordScan(t *testing.T) {
	saved := useAVX2
	useAVX2 = false
	defer func() { useAVX2 = saved }()
	t.Run("AgreesWithCarefulScan", TestBlockScanAgreesWithCarefulScan)
	t.Run("BackslashRuns", TestBlockScanBackslashRuns)
	t.Run("UTF8", TestBlockScanUTF8)
	t.Run("ShortStrings", TestStringScanAgreesWithCarefulScan)
}
