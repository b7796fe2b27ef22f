/* Big-endian (network order) loads and stores at explicit offsets: every
 * wire format of ibahprobe (GRH, MADs, probes) is read and written through
 * these, never by casting a buffer to a struct. */
#ifndef IBAHPROBE_WIRE_BYTES_H
#define IBAHPROBE_WIRE_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline void wire_put8(uint8_t *b, size_t off, uint8_t v)
{
	b[off] = v;
}

static inline void wire_put16(uint8_t *b, size_t off, uint16_t v)
{
	b[off] = (uint8_t)(v >> 8);
	b[off + 1] = (uint8_t)v;
}

static inline void wire_put32(uint8_t *b, size_t off, uint32_t v)
{
	wire_put16(b, off, (uint16_t)(v >> 16));
	wire_put16(b, off + 2, (uint16_t)v);
}

static inline void wire_put64(uint8_t *b, size_t off, uint64_t v)
{
	wire_put32(b, off, (uint32_t)(v >> 32));
	wire_put32(b, off + 4, (uint32_t)v);
}

static inline uint16_t wire_get16(const uint8_t *b, size_t off)
{
	return (uint16_t)(b[off] << 8 | b[off + 1]);
}

static inline uint32_t wire_get32(const uint8_t *b, size_t off)
{
	return (uint32_t)wire_get16(b, off) << 16 | wire_get16(b, off + 2);
}

static inline uint64_t wire_get64(const uint8_t *b, size_t off)
{
	return (uint64_t)wire_get32(b, off) << 32 | wire_get32(b, off + 4);
}

#endif
