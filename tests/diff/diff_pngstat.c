/* diff_pngstat: prints a PNG's size and how many of its pixels are pure
 * red, the colour of differences in diff images; the HTML report test uses
 * it to see, in a browser screenshot, that the diff image is on screen.
 * usage: diff_pngstat FILE   ->   "WIDTH HEIGHT RED" */
#include <stdio.h>

#include "gt_diff.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: diff_pngstat FILE\n");
        return 2;
    }
    gt_diff_image img;
    char err[GT_DIFF_ERR_MAX];
    if (gt_diff_png_read(argv[1], &img, err) != 0) {
        fprintf(stderr, "diff_pngstat: %s\n", err);
        return 2;
    }
    size_t red = 0, n = (size_t)img.width * img.height;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = img.rgba + 4 * i;
        /* Allow for the browser's scaling and colour handling. */
        red += p[0] >= 220 && p[1] <= 40 && p[2] <= 40;
    }
    printf("%u %u %zu\n", img.width, img.height, red);
    gt_diff_image_free(&img);
    return 0;
}
