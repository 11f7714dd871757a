/* HDF5 files built in memory, then written with checked write(2) to an output file (sim/outfile.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "h5image.h"
#include "xxh64.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

hid_t dc_h5image_fapl(void)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0)
        return -1;
    if (H5Pset_fapl_core(fapl, 1 << 20, 0) < 0 || H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0 ||
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0) {
        H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

/* Bob Jenkins' lookup3 hashlittle, as HDF5's H5_checksum_lookup3 (metadata
 * checksums), byte by byte. */
#define ROT(x, k) (((x) << (k)) | ((x) >> (32 - (k))))
static uint32_t lookup3(const unsigned char *k, size_t length, uint32_t initval)
{
    uint32_t a, b, c;
    a = b = c = 0xdeadbeef + (uint32_t)length + initval;
    while (length > 12) {
        a += k[0] + ((uint32_t)k[1] << 8) + ((uint32_t)k[2] << 16) + ((uint32_t)k[3] << 24);
        b += k[4] + ((uint32_t)k[5] << 8) + ((uint32_t)k[6] << 16) + ((uint32_t)k[7] << 24);
        c += k[8] + ((uint32_t)k[9] << 8) + ((uint32_t)k[10] << 16) + ((uint32_t)k[11] << 24);
        a -= c; a ^= ROT(c, 4); c += b;
        b -= a; b ^= ROT(a, 6); a += c;
        c -= b; c ^= ROT(b, 8); b += a;
        a -= c; a ^= ROT(c, 16); c += b;
        b -= a; b ^= ROT(a, 19); a += c;
        c -= b; c ^= ROT(b, 4); b += a;
        length -= 12;
        k += 12;
    }
    switch (length) {
    case 12: c += (uint32_t)k[11] << 24; /* fall through */
    case 11: c += (uint32_t)k[10] << 16; /* fall through */
    case 10: c += (uint32_t)k[9] << 8; /* fall through */
    case 9: c += k[8]; /* fall through */
    case 8: b += (uint32_t)k[7] << 24; /* fall through */
    case 7: b += (uint32_t)k[6] << 16; /* fall through */
    case 6: b += (uint32_t)k[5] << 8; /* fall through */
    case 5: b += k[4]; /* fall through */
    case 4: a += (uint32_t)k[3] << 24; /* fall through */
    case 3: a += (uint32_t)k[2] << 16; /* fall through */
    case 2: a += (uint32_t)k[1] << 8; /* fall through */
    case 1: a += k[0]; break;
    case 0: return c;
    }
    c ^= b; c -= ROT(b, 14);
    a ^= c; a -= ROT(c, 11);
    b ^= a; b -= ROT(a, 25);
    c ^= b; c -= ROT(b, 16);
    a ^= c; a -= ROT(c, 4);
    b ^= a; b -= ROT(a, 14);
    c ^= b; c -= ROT(b, 24);
    return c;
}

/* HDF5 1.10's H5Fget_file_image clears the "open for writing" flags of a
 * version 2 or 3 superblock in the image but leaves its checksum as it
 * was, so the image would not open: recompute it.  Layout: signature (8),
 * version, size of offsets O, size of lengths, flags, four addresses of O
 * bytes, checksum (4, little-endian) of everything before it. */
static void fix_superblock(unsigned char *img, size_t size)
{
    if (size < 12 || memcmp(img, "\x89HDF\r\n\x1a\n", 8) != 0 || (img[8] != 2 && img[8] != 3))
        return;
    size_t n = 12 + 4 * (size_t)img[9];
    if (n + 4 > size)
        return;
    uint32_t sum = lookup3(img, n, 0);
    for (int i = 0; i < 4; i++)
        img[n + (size_t)i] = (unsigned char)(sum >> (8 * i));
}

/* Writes the checksum's user block, then the size bytes of img, to out. */
static int write_image(const char *img, size_t size, dc_outfile *out, char *why, size_t why_size)
{
    /* The user block in front of the image (libhdf5 finds the superblock
     * at 512 and takes that as the base of every address): the checksum. */
    char block[DC_H5IMAGE_USERBLOCK];
    memset(block, 0, sizeof block);
    snprintf(block, sizeof block, "dcsim-checksum 2\nsize %zu\nxxh64 %016llx\n", size,
             (unsigned long long)dc_xxh64(img, size, 0));
    const char *name = dc_outfile_name(out);
    const char *parts[2] = {block, img};
    size_t lens[2] = {sizeof block, size};
    for (int k = 0; k < 2; k++) {
        const char *p = parts[k];
        size_t left = lens[k];
        while (left > 0) {
            ssize_t n = write(dc_outfile_fd(out), p, left);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                const char *e = n < 0 ? strerror(errno) : "no progress";
                if (dc_outfile_in_place(out))
                    snprintf(why, why_size, "%s", e); /* the message names the file already */
                else
                    snprintf(why, why_size, "cannot write '%s': %s", name, e);
                return -1;
            }
            p += n;
            left -= (size_t)n;
        }
    }
    return 0;
}

int dc_h5image_save(hid_t file, dc_outfile *out, char *why, size_t why_size)
{
    if (H5Fflush(file, H5F_SCOPE_GLOBAL) < 0) {
        snprintf(why, why_size, "could not finish the file in memory");
        return -1;
    }
    ssize_t size = H5Fget_file_image(file, NULL, 0);
    if (size < 0) {
        snprintf(why, why_size, "could not get the file's image");
        return -1;
    }
    char *buf = malloc(size ? (size_t)size : 1);
    if (!buf) {
        snprintf(why, why_size, "out of memory (%zd bytes)", size);
        return -1;
    }
    if (H5Fget_file_image(file, buf, (size_t)size) != size) {
        free(buf);
        snprintf(why, why_size, "could not get the file's image");
        return -1;
    }
    fix_superblock((unsigned char *)buf, (size_t)size);
    int rc = write_image(buf, (size_t)size, out, why, why_size);
    free(buf);
    return rc;
}

/* ---- the image kept at close (no copy) ---------------------------------------- */

struct dc_h5image {
    unsigned char *mem; /* the core driver's buffer, kept when the file closed */
    size_t cap;         /* its allocated size */
};

dc_h5image *dc_h5image_create(void)
{
    return calloc(1, sizeof(dc_h5image));
}

void dc_h5image_destroy(dc_h5image *img)
{
    if (!img)
        return;
    free(img->mem);
    free(img);
}

/* libhdf5's file image callbacks (H5Pset_file_image_callbacks): plain
 * malloc/realloc/free, except that the buffer the core driver frees when
 * the file closes is kept for dc_h5image_write. */
static void *img_malloc(size_t size, H5FD_file_image_op_t op, void *udata)
{
    (void)op;
    (void)udata;
    return malloc(size);
}

static void *img_memcpy(void *dest, const void *src, size_t size, H5FD_file_image_op_t op, void *udata)
{
    (void)op;
    (void)udata;
    return memcpy(dest, src, size);
}

static void *img_realloc(void *ptr, size_t size, H5FD_file_image_op_t op, void *udata)
{
    dc_h5image *img = udata;
    void *p = realloc(ptr, size);
    if (p && op == H5FD_FILE_IMAGE_OP_FILE_RESIZE)
        img->cap = size;
    return p;
}

static herr_t img_free(void *ptr, H5FD_file_image_op_t op, void *udata)
{
    dc_h5image *img = udata;
    if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && ptr) {
        free(img->mem);
        img->mem = ptr;
        return 0;
    }
    free(ptr);
    return 0;
}

static void *udata_copy(void *udata)
{
    return udata; /* every copy of the property list points at the same image */
}

static herr_t udata_free(void *udata)
{
    (void)udata;
    return 0;
}

hid_t dc_h5image_fapl_keep(dc_h5image *img)
{
    hid_t fapl = dc_h5image_fapl();
    H5FD_file_image_callbacks_t cb = {img_malloc, img_memcpy, img_realloc, img_free, udata_copy, udata_free, img};
    if (fapl >= 0 && H5Pset_file_image_callbacks(fapl, &cb) < 0) {
        H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

/* The end of file address of a version 2 or 3 superblock at the start of
 * img (signature 8, version, size of offsets O, size of lengths, flags,
 * then base, extension and end-of-file addresses of O bytes, little-endian);
 * 0 if img does not start with one. */
static size_t superblock_eof(const unsigned char *img, size_t cap)
{
    if (cap < 48 || memcmp(img, "\x89HDF\r\n\x1a\n", 8) != 0 || (img[8] != 2 && img[8] != 3) || img[9] != 8)
        return 0;
    uint64_t eof = 0;
    for (int i = 7; i >= 0; i--)
        eof = (eof << 8) | img[12 + 16 + i];
    return eof <= cap ? (size_t)eof : 0;
}

int dc_h5image_write(dc_h5image *img, dc_outfile *out, char *why, size_t why_size)
{
    size_t size = img && img->mem ? superblock_eof(img->mem, img->cap) : 0;
    if (size == 0) {
        snprintf(why, why_size, "could not get the file's image");
        return -1;
    }
    return write_image((const char *)img->mem, size, out, why, why_size);
}

unsigned long long dc_fnv1a64(unsigned long long h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

int dc_h5image_verify(const char *path, char *why, size_t why_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char head[DC_H5IMAGE_USERBLOCK + 1];
    size_t got = fread(head, 1, DC_H5IMAGE_USERBLOCK, f);
    head[got] = '\0';
    size_t size = 0;
    unsigned long long want = 0;
    if (got < DC_H5IMAGE_USERBLOCK || strncmp(head, "dcsim-checksum ", 15) != 0) {
        fclose(f);
        return 0; /* no checksum: read unchecked */
    }
    /* version 2: XXH64; version 1 (dcsim before XXH64): FNV-1a */
    int version = sscanf(head, "dcsim-checksum 2\nsize %zu\nxxh64 %llx\n", &size, &want) == 2   ? 2
                  : sscanf(head, "dcsim-checksum 1\nsize %zu\nfnv1a64 %llx\n", &size, &want) == 2 ? 1
                                                                                               : 0;
    if (version == 0) {
        fclose(f);
        snprintf(why, why_size, "its checksum block is damaged or from a newer dcsim");
        return 1;
    }
    unsigned long long h = DC_FNV1A64_INIT;
    dc_xxh64_state x;
    dc_xxh64_init(&x, 0);
    size_t total = 0;
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (version == 2)
            dc_xxh64_update(&x, buf, n);
        else
            h = dc_fnv1a64(h, buf, n);
        total += n;
    }
    if (version == 2)
        h = dc_xxh64_digest(&x);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return -1;
    if (total != size) {
        snprintf(why, why_size, "it holds %zu bytes where dcsim wrote %zu (%s)", total + DC_H5IMAGE_USERBLOCK,
                 size + DC_H5IMAGE_USERBLOCK, total < size ? "cut short" : "bytes added");
        return 1;
    }
    if (h != want) {
        snprintf(why, why_size, "its checksum does not match: it was changed or damaged after dcsim wrote it");
        return 1;
    }
    return 0;
}
