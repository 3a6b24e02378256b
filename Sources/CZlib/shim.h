// The system zlib (deflate/inflate, crc32), for reading Apple Health export.zip archives.
#include <zlib.h>
