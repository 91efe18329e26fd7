// Package strkey reads and writes Stellar StrKeys (SEP-23) for ed25519
// public keys ("G…", the payout destination address) and ed25519 secret
// seeds ("S…"). A StrKey is base32 (RFC 4648, no padding) of a version byte,
// the 32-byte key and a CRC16-XModem checksum stored little-endian: 35 bytes,
// 56 characters. Decoding checks every part, because a destination that is
// off by one character sends money to a key nobody holds.
package strkey
