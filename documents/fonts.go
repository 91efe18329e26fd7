package documents

import _ "embed"

// The PDF core fonts are Latin-1 only and cannot draw "₹" (U+20B9), so the
// FIRA uses DejaVu Sans, embedded so that a document looks the same on every
// machine that renders it and needs no font installed on the server. It is
// free to redistribute: see fonts/LICENSE.
var (
	//go:embed fonts/DejaVuSans.ttf
	dejaVuSans []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	dejaVuSansBold []byte
)

// fontFamily is the name the PDF writer knows the embedded family by.
const fontFamily = "DejaVuSans"
