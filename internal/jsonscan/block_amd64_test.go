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
// classifyAVX512 or classifyVBMI.
func TestBlockScanAVX2(t *testing.T) {
	if !useBlocks || !useAVX512 {
		t.Skip("the CPU has no AVX-512BW or no AVX2: the other tests already ran the classifier it uses")
	}
	saved512, savedVBMI := useAVX512, useVBMI
	useAVX512, useVBMI = false, false
	defer func() { useAVX512, useVBMI = saved512, savedVBMI }()
	t.Run("AgreesWithCarefulScan", TestBlockScanAgreesWithCarefulScan)
	t.Run("BackslashRuns", TestBlockScanBackslashRuns)
	t.Run("UTF8", TestBlockScanUTF8)
}

// TestBlockScanAVX512 runs the block scan tests with classifyAVX512 where the CPU would use
// classifyVBMI.
func TestBlockScanAVX512(t *testing.T) {
	if !useVBMI {
		t.Skip("the CPU has no AVX512-VBMI: the other tests already ran the classifier it uses")
	}
	useVBMI = false
	defer func() { useVBMI = true }()
	t.Run("AgreesWithCarefulScan", TestBlockScanAgreesWithCarefulScan)
	t.Run("BackslashRuns", TestBlockScanBackslashRuns)
	t.Run("UTF8", TestBlockScanUTF8)
}
