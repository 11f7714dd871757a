/* HDF5 files built in memory, then written with checked write(2) to an output file (sim/outfile.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "h5image.h"
#include "xxh3.h"
#include "xxh64.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
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

/* Writes the n bytes of p to out, checking every write. */
static int write_all(const char *p, size_t left, dc_outfile *out, char *why, size_t why_size)
{
    while (left > 0) {
        ssize_t n = write(dc_outfile_fd(out), p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const char *e = n < 0 ? strerror(errno) : "no progress";
            if (!dc_outfile_temp_name(out))
                snprintf(why, why_size, "%s", e); /* the message names the file already */
            else
                snprintf(why, why_size, "cannot write '%s': %s", dc_outfile_temp_name(out), e);
            return -1;
        }
        p += n;
        left -= (size_t)n;
    }
    return 0;
}

/* Writes the checksum's user block, then the size bytes of img, to out. */
static int write_image(const char *img, size_t size, dc_outfile *out, char *why, size_t why_size)
{
    /* The user block in front of the image (libhdf5 finds the superblock
     * at 512 and takes that as the base of every address): the checksum. */
    char block[DC_H5IMAGE_USERBLOCK];
    memset(block, 0, sizeof block);
    snprintf(block, sizeof block, "dcsim-checksum 3\nsize %zu\nxxh3 %016llx\n", size,
             (unsigned long long)dc_xxh3(img, size));
    if (write_all(block, sizeof block, out, why, why_size) != 0)
        return -1;
    return write_all(img, size, out, why, why_size);
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

/* ---- the image kept by a driver of our own --------------------------------- */

/* The file's bytes by address: 4 KiB pages in memory (allocated when
 * written), except the extents of large raw-data writes made once
 * spill_after raw bytes lie in memory, which go to the spool, an unlinked
 * temporary file.  A byte's value is its extent's if one covers it, else
 * its page's (0 if none).  Extents are disjoint and sorted by address. */
#define PAGE_BYTES 4096
#define SPILL_MIN_BYTES 8192 /* smaller raw writes stay in memory */
#define DEFAULT_SPILL_AFTER ((size_t)16 << 20)

typedef struct spill_ext {
    uint64_t addr, len, off; /* off: where in the spool */
} spill_ext;

struct dc_h5image {
    unsigned char **page;
    size_t n_page;
    spill_ext *ext;
    size_t n_ext, cap_ext;
    int fd;        /* the spool; -1 until the first spilled write */
    bool no_spool; /* creating or writing it failed: memory from then on */
    uint64_t fd_end;
    uint64_t eoa, eof;
    size_t raw_mem, spill_after;
    uint64_t spilled;
    char *dir; /* the spool's directory; NULL: $TMPDIR, else /tmp */
    hid_t driver;
    bool open;
};

dc_h5image *dc_h5image_create(void)
{
    dc_h5image *img = calloc(1, sizeof *img);
    if (img) {
        img->fd = -1;
        img->driver = -1;
        img->spill_after = DEFAULT_SPILL_AFTER;
    }
    return img;
}

/* Forgets every byte (a file created again on the same image). */
static void store_clear(dc_h5image *img)
{
    for (size_t i = 0; i < img->n_page; i++)
        free(img->page[i]);
    free(img->page);
    free(img->ext);
    if (img->fd >= 0)
        close(img->fd);
    img->page = NULL;
    img->ext = NULL;
    img->n_page = img->n_ext = img->cap_ext = 0;
    img->fd = -1;
    img->no_spool = false;
    img->fd_end = img->eoa = img->eof = img->spilled = 0;
    img->raw_mem = 0;
}

void dc_h5image_destroy(dc_h5image *img)
{
    if (!img)
        return;
    store_clear(img);
    if (img->driver >= 0)
        H5FDunregister(img->driver);
    free(img->dir);
    free(img);
}

int dc_h5image_set_spill(dc_h5image *img, size_t spill_after, const char *dir)
{
    char *d = NULL;
    if (dir && !(d = strdup(dir)))
        return -1;
    free(img->dir);
    img->dir = d;
    img->spill_after = spill_after;
    return 0;
}

unsigned long long dc_h5image_spilled(const dc_h5image *img)
{
    return img ? img->spilled : 0;
}

/* The index of the first extent ending after addr. */
static size_t ext_find(const dc_h5image *img, uint64_t addr)
{
    size_t lo = 0, hi = img->n_ext;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (img->ext[mid].addr + img->ext[mid].len <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = pread(fd, p, n, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        n -= (size_t)got;
        off += (uint64_t)got;
    }
    return 0;
}

static int pwrite_all(int fd, const void *buf, size_t n, uint64_t off)
{
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t put = pwrite(fd, p, n, (off_t)off);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        p += put;
        n -= (size_t)put;
        off += (uint64_t)put;
    }
    return 0;
}

/* Copies n bytes to the pages from addr on. */
static int pages_write(dc_h5image *img, uint64_t addr, const unsigned char *src, size_t n)
{
    uint64_t last = (addr + n - 1) / PAGE_BYTES;
    if (last >= img->n_page) {
        size_t want = img->n_page ? img->n_page : 64;
        while (want <= last)
            want *= 2;
        unsigned char **p = realloc(img->page, want * sizeof *p);
        if (!p)
            return -1;
        memset(p + img->n_page, 0, (want - img->n_page) * sizeof *p);
        img->page = p;
        img->n_page = want;
    }
    while (n > 0) {
        uint64_t i = addr / PAGE_BYTES;
        size_t at = (size_t)(addr % PAGE_BYTES), k = PAGE_BYTES - at < n ? PAGE_BYTES - at : n;
        if (!img->page[i]) {
            /* a new page: only the bytes this write leaves are zeroed
             * (calloc cleared the whole page first, 4,096 instructions
             * under callgrind, and most pages are written whole) */
            if (!(img->page[i] = malloc(PAGE_BYTES)))
                return -1;
            memset(img->page[i], 0, at);
            memset(img->page[i] + at + k, 0, PAGE_BYTES - at - k);
        }
        memcpy(img->page[i] + at, src, k);
        src += k;
        addr += k;
        n -= k;
    }
    return 0;
}

/* The n bytes from addr: the pages', then the extents' over them. */
static int store_read(const dc_h5image *img, uint64_t addr, unsigned char *dst, size_t n)
{
    uint64_t a = addr;
    unsigned char *d = dst;
    for (size_t left = n; left > 0;) {
        uint64_t i = a / PAGE_BYTES;
        size_t at = (size_t)(a % PAGE_BYTES), k = PAGE_BYTES - at < left ? PAGE_BYTES - at : left;
        if (i < img->n_page && img->page[i])
            memcpy(d, img->page[i] + at, k);
        else
            memset(d, 0, k);
        d += k;
        a += k;
        left -= k;
    }
    for (size_t e = ext_find(img, addr); e < img->n_ext && img->ext[e].addr < addr + n; e++) {
        const spill_ext *x = &img->ext[e];
        uint64_t from = x->addr > addr ? x->addr : addr;
        uint64_t to = x->addr + x->len < addr + n ? x->addr + x->len : addr + n;
        if (pread_all(img->fd, dst + (from - addr), (size_t)(to - from), x->off + (from - x->addr)) != 0)
            return -1;
    }
    return 0;
}

/* Extent e's bytes copied into the pages and the extent removed. */
static int ext_materialize(dc_h5image *img, size_t e)
{
    spill_ext x = img->ext[e];
    unsigned char buf[PAGE_BYTES];
    for (uint64_t done = 0; done < x.len;) {
        size_t k = x.len - done < PAGE_BYTES ? (size_t)(x.len - done) : PAGE_BYTES;
        if (pread_all(img->fd, buf, k, x.off + done) != 0 || pages_write(img, x.addr + done, buf, k) != 0)
            return -1;
        done += k;
    }
    memmove(img->ext + e, img->ext + e + 1, (img->n_ext - e - 1) * sizeof *img->ext);
    img->n_ext--;
    return 0;
}

/* Removes the extents over [addr, addr + n): those inside it dropped (when
 * drop, as a spilled write of that range replaces them), the others kept
 * in the pages. */
static int ext_clear(dc_h5image *img, uint64_t addr, size_t n, bool drop)
{
    size_t e = ext_find(img, addr);
    while (e < img->n_ext && img->ext[e].addr < addr + n) {
        const spill_ext *x = &img->ext[e];
        if (drop && x->addr >= addr && x->addr + x->len <= addr + n) {
            memmove(img->ext + e, img->ext + e + 1, (img->n_ext - e - 1) * sizeof *img->ext);
            img->n_ext--;
        } else if (ext_materialize(img, e) != 0) {
            return -1;
        }
    }
    return 0;
}

static int spool_open(dc_h5image *img)
{
    const char *dir = img->dir ? img->dir : getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t len = strlen(dir) + 32;
    char *name = malloc(len);
    if (!name)
        return -1;
    snprintf(name, len, "%s/dcsim-spool-XXXXXX", dir);
    int fd = mkstemp(name);
    if (fd >= 0) {
        unlink(name); /* nothing is left behind, however the process ends */
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    free(name);
    img->fd = fd;
    return fd >= 0 ? 0 : -1;
}

/* A large raw write to the spool; -1 (nothing changed) if it cannot be. */
static int spill_write(dc_h5image *img, uint64_t addr, const unsigned char *src, size_t n)
{
    size_t e = ext_find(img, addr);
    if (e < img->n_ext && img->ext[e].addr == addr && img->ext[e].len == n) /* written again in place */
        return pwrite_all(img->fd, src, n, img->ext[e].off);
    if (img->fd < 0 && spool_open(img) != 0)
        return -1;
    if (img->n_ext == img->cap_ext) {
        size_t want = img->cap_ext ? 2 * img->cap_ext : 256;
        spill_ext *p = realloc(img->ext, want * sizeof *p);
        if (!p)
            return -1;
        img->ext = p;
        img->cap_ext = want;
    }
    if (pwrite_all(img->fd, src, n, img->fd_end) != 0)
        return -1;
    if (ext_clear(img, addr, n, true) != 0)
        return -1;
    e = ext_find(img, addr);
    memmove(img->ext + e + 1, img->ext + e, (img->n_ext - e) * sizeof *img->ext);
    img->ext[e] = (spill_ext){addr, n, img->fd_end};
    img->n_ext++;
    img->fd_end += n;
    img->spilled += n;
    return 0;
}

/* ---- the driver (libhdf5's virtual file layer, H5FDpublic.h) ---- */

typedef struct keep_file {
    H5FD_t pub; /* first, as libhdf5 wants */
    dc_h5image *img;
} keep_file;

typedef struct keep_info {
    dc_h5image *img;
} keep_info;

static H5FD_t *keep_open(const char *name, unsigned flags, hid_t fapl, haddr_t maxaddr)
{
    (void)name;
    (void)maxaddr;
    const keep_info *info = H5Pget_driver_info(fapl);
    if (!info || !info->img || info->img->open || !(flags & H5F_ACC_RDWR) || !(flags & H5F_ACC_CREAT))
        return NULL; /* only for creating one file at a time */
    keep_file *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->img = info->img;
    store_clear(f->img);
    f->img->open = true;
    return &f->pub;
}

static herr_t keep_close(H5FD_t *file)
{
    keep_file *f = (keep_file *)file;
    f->img->open = false;
    free(f);
    return 0;
}

static int keep_cmp(const H5FD_t *a, const H5FD_t *b)
{
    const dc_h5image *x = ((const keep_file *)a)->img, *y = ((const keep_file *)b)->img;
    return x < y ? -1 : x > y;
}

/* The core driver's features (without a backing store), so that files
 * are laid out as it lays them out. */
static herr_t keep_query(const H5FD_t *file, unsigned long *flags)
{
    (void)file;
    if (flags)
        *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE |
                 H5FD_FEAT_AGGREGATE_SMALLDATA;
    return 0;
}

static haddr_t keep_get_eoa(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const keep_file *)file)->img->eoa;
}

static herr_t keep_set_eoa(H5FD_t *file, H5FD_mem_t type, haddr_t addr)
{
    (void)type;
    ((keep_file *)file)->img->eoa = addr;
    return 0;
}

static haddr_t keep_get_eof(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const keep_file *)file)->img->eof;
}

static herr_t keep_read(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size, void *buf)
{
    (void)type;
    (void)dxpl;
    if (addr == HADDR_UNDEF || addr + size < addr)
        return -1;
    return store_read(((keep_file *)file)->img, addr, buf, size) == 0 ? 0 : -1;
}

static herr_t keep_write(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size, const void *buf)
{
    (void)dxpl;
    dc_h5image *img = ((keep_file *)file)->img;
    if (addr == HADDR_UNDEF || addr + size < addr)
        return -1;
    if (size == 0)
        return 0;
    bool raw = type == H5FD_MEM_DRAW;
    bool spilled = false;
    if (raw && size >= SPILL_MIN_BYTES && img->raw_mem >= img->spill_after && !img->no_spool) {
        spilled = spill_write(img, addr, buf, size) == 0;
        img->no_spool = !spilled; /* a full disk: memory for the rest */
    }
    if (!spilled) {
        if (ext_clear(img, addr, size, false) != 0 || pages_write(img, addr, buf, size) != 0)
            return -1;
        if (raw)
            img->raw_mem += size;
    }
    if (addr + size > img->eof)
        img->eof = addr + size;
    return 0;
}

/* The file's end at its allocated end, as the core driver does; bytes
 * beyond it are forgotten. */
static herr_t keep_truncate(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    (void)dxpl;
    (void)closing;
    dc_h5image *img = ((keep_file *)file)->img;
    if (img->eoa < img->eof) {
        uint64_t end = img->eoa;
        for (uint64_t i = (end + PAGE_BYTES - 1) / PAGE_BYTES; i < img->n_page; i++) {
            free(img->page[i]);
            img->page[i] = NULL;
        }
        if (end % PAGE_BYTES && end / PAGE_BYTES < img->n_page && img->page[end / PAGE_BYTES])
            memset(img->page[end / PAGE_BYTES] + end % PAGE_BYTES, 0, PAGE_BYTES - end % PAGE_BYTES);
        size_t e = ext_find(img, end);
        if (e < img->n_ext && img->ext[e].addr < end) {
            img->ext[e].len = end - img->ext[e].addr;
            e++;
        }
        img->n_ext = e;
    }
    img->eof = img->eoa;
    return 0;
}

static const H5FD_class_t keep_class = {
    "dcsim_keep", (haddr_t)(~(size_t)0) - 1, H5F_CLOSE_WEAK, NULL, NULL, NULL, NULL,
    sizeof(keep_info), NULL, NULL, NULL, 0, NULL, NULL,
    keep_open, keep_close, keep_cmp, keep_query, NULL, NULL, NULL,
    keep_get_eoa, keep_set_eoa, keep_get_eof, NULL, keep_read, keep_write, NULL, keep_truncate, NULL, NULL,
    H5FD_FLMAP_DICHOTOMY};

hid_t dc_h5image_fapl_keep(dc_h5image *img)
{
    if (img->driver < 0 && (img->driver = H5FDregister(&keep_class)) < 0)
        return -1;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0)
        return -1;
    keep_info info = {img};
    if (H5Pset_driver(fapl, img->driver, &info) < 0 ||
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0 ||
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0) {
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

#define EMIT_BYTES ((size_t)1 << 16)
#define EMIT_PIECES (EMIT_BYTES / PAGE_BYTES + 1)

/* The bytes [at, at + k) as pieces of the pages themselves (zeros for a
 * page never written), when no spilled extent lies over them: the image
 * is hashed and written from where it lies instead of copied out first
 * (a copy is an instruction a byte under callgrind).  The number of
 * pieces, or 0 if an extent lies over the range (then store_read). */
static size_t pieces(const dc_h5image *img, uint64_t at, size_t k, struct iovec *iov)
{
    static const unsigned char zeros[PAGE_BYTES];
    size_t e = ext_find(img, at);
    if (e < img->n_ext && img->ext[e].addr < at + k)
        return 0;
    size_t n = 0;
    while (k > 0) {
        uint64_t i = at / PAGE_BYTES;
        size_t off = (size_t)(at % PAGE_BYTES), len = PAGE_BYTES - off < k ? PAGE_BYTES - off : k;
        const unsigned char *p = i < img->n_page && img->page[i] ? img->page[i] + off : zeros;
        iov[n++] = (struct iovec){(void *)p, len};
        at += len;
        k -= len;
    }
    return n;
}

/* Writes the n pieces of iov to out, checking every write. */
static int writev_all(struct iovec *iov, size_t n, dc_outfile *out, char *why, size_t why_size)
{
    while (n > 0) {
        ssize_t put = writev(dc_outfile_fd(out), iov, (int)n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0) {
            const char *e = put < 0 ? strerror(errno) : "no progress";
            if (!dc_outfile_temp_name(out))
                snprintf(why, why_size, "%s", e);
            else
                snprintf(why, why_size, "cannot write '%s': %s", dc_outfile_temp_name(out), e);
            return -1;
        }
        size_t done = (size_t)put;
        for (; n > 0 && done >= iov->iov_len; iov++, n--)
            done -= iov->iov_len;
        if (n > 0) { /* a piece written in part: the rest of it */
            iov->iov_base = (char *)iov->iov_base + done;
            iov->iov_len -= done;
        }
    }
    return 0;
}

int dc_h5image_write(dc_h5image *img, dc_outfile *out, char *why, size_t why_size)
{
    unsigned char head[48];
    uint64_t end = img ? (img->eof > img->eoa ? img->eof : img->eoa) : 0;
    size_t size = 0;
    if (img && !img->open && end >= sizeof head && store_read(img, 0, head, sizeof head) == 0)
        size = superblock_eof(head, end > SIZE_MAX ? SIZE_MAX : (size_t)end);
    if (size == 0) {
        snprintf(why, why_size, "could not get the file's image");
        return -1;
    }
    unsigned char *buf = malloc(EMIT_BYTES);
    if (!buf) {
        snprintf(why, why_size, "out of memory (%zu bytes)", EMIT_BYTES);
        return -1;
    }
    struct iovec iov[EMIT_PIECES];
    /* two passes: the checksum goes in front */
    dc_xxh3_state x;
    dc_xxh3_init(&x);
    int rc = 0;
    for (size_t at = 0; rc == 0 && at < size; at += EMIT_BYTES) {
        size_t k = size - at < EMIT_BYTES ? size - at : EMIT_BYTES;
        size_t np = pieces(img, at, k, iov);
        for (size_t i = 0; i < np; i++)
            dc_xxh3_update(&x, iov[i].iov_base, iov[i].iov_len);
        if (np == 0 && (rc = store_read(img, at, buf, k)) == 0)
            dc_xxh3_update(&x, buf, k);
    }
    char block[DC_H5IMAGE_USERBLOCK];
    memset(block, 0, sizeof block);
    snprintf(block, sizeof block, "dcsim-checksum 3\nsize %zu\nxxh3 %016llx\n", size,
             (unsigned long long)dc_xxh3_digest(&x));
    if (rc == 0)
        rc = write_all(block, sizeof block, out, why, why_size);
    else
        snprintf(why, why_size, "could not read back its spool file: %s", strerror(errno));
    for (size_t at = 0; rc == 0 && at < size; at += EMIT_BYTES) {
        size_t k = size - at < EMIT_BYTES ? size - at : EMIT_BYTES;
        size_t np = pieces(img, at, k, iov);
        if (np > 0) {
            rc = writev_all(iov, np, out, why, why_size);
        } else if (store_read(img, at, buf, k) != 0) {
            snprintf(why, why_size, "could not read back its spool file: %s", strerror(errno));
            rc = -1;
        } else {
            rc = write_all((const char *)buf, k, out, why, why_size);
        }
    }
    free(buf);
    return rc;
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

void dc_h5image_no_teardown(void)
{
    H5dont_atexit();
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
    /* version 3: XXH3-64; 2 (dcsim before XXH3): XXH64; 1 (before XXH64): FNV-1a */
    int version = sscanf(head, "dcsim-checksum 3\nsize %zu\nxxh3 %llx\n", &size, &want) == 2      ? 3
                  : sscanf(head, "dcsim-checksum 2\nsize %zu\nxxh64 %llx\n", &size, &want) == 2   ? 2
                  : sscanf(head, "dcsim-checksum 1\nsize %zu\nfnv1a64 %llx\n", &size, &want) == 2 ? 1
                                                                                               : 0;
    if (version == 0) {
        fclose(f);
        snprintf(why, why_size, "its checksum block is damaged or from a newer dcsim");
        return 1;
    }
    unsigned long long h = DC_FNV1A64_INIT;
    dc_xxh3_state x3;
    dc_xxh3_init(&x3);
    dc_xxh64_state x;
    dc_xxh64_init(&x, 0);
    size_t total = 0;
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (version == 3)
            dc_xxh3_update(&x3, buf, n);
        else if (version == 2)
            dc_xxh64_update(&x, buf, n);
        else
            h = dc_fnv1a64(h, buf, n);
        total += n;
    }
    if (version == 3)
        h = dc_xxh3_digest(&x3);
    else if (version == 2)
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
