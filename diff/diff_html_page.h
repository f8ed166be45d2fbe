/* diff_html_page.h: the style sheet and script of the HTML report. */
#ifndef GT_DIFF_HTML_PAGE_H
#define GT_DIFF_HTML_PAGE_H

/* CSS, without <style> tags. */
extern const char diff_html_css[];

/* JavaScript, without <script> tags. Wires each pair's slider and toggle,
 * and on load writes into #status: data-state="ready", data-failing (how
 * many failing pairs), data-images-loaded / data-images-broken (of those
 * pairs' images), data-first (name of the first pair on the page). */
extern const char diff_html_js[];

#endif
