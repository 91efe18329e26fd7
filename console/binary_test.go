package console_test

import (
	"testing"

	"github.com/payoutd/payoutd/internal/binarytest"
)

func TestMain(m *testing.M) { binarytest.Main(m, nil) }

// The binary's helpers under the names these tests use.
type proc = binarytest.Proc

var (
	start      = binarytest.Start
	cli        = binarytest.Run
	get        = binarytest.Get
	post       = binarytest.Post
	openBeside = binarytest.OpenBeside
)
