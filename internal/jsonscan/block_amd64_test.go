package jsonscan

import "testing"

// TestWordScan runs the string scan tests with useBlocks off, as on CPUs without AVX2 and other
// architectures: scanWords must agree with the careful scan just as scanBlocks does.
func TestWordScan(t *testing.T) {
	saved := useBlocks
	useBlocks = false
	defer func() { useBlocks = saved }()
	t.Run("AgreesWithCarefulScan", TestBlockScanAgreesWithCarefulScan)
	t.Run("BackslashRuns", TestBlockScanBackslashRuns)
	t.Run("UTF8", TestBlockScanUTF8)
	t.Run("ShortStrings", TestStringScanAgreesWithCarefulScan)
}

// TestBlockScanAVX2 runs the block scan tests with classifyAVX2 where the CPU would use
// classifyAVX512.
func TestBlockScanAVX2(t *testing.T) {
	if !useBlocks || !useAVX512 {
		t.Skip("the CPU has no AVX-512BW or no AVX2: the other tests already ran the classifier it uses")
	}
	useAVX512 = false
	defer func() { useAVX512 = true }()
	t.Run("AgreesWithCarefulScan", TestBlockScanAgreesWithCarefulScan)
	t.Run("BackslashRuns", TestBlockScanBackslashRuns)
	t.Run("UTF8", TestBlockScanUTF8)
}
