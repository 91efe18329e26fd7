package strkey

import (
	"testing"

	"github.com/matryer/is"
)

func TestCRC16(t *testing.T) {
	is := is.New(t)
	is.Equal(crc16([]byte("123456789")), uint16(0x31C3)) // CRC-16/XMODEM check value
	is.Equal(crc16(nil), uint16(0))
}
