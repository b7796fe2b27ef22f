/* libFuzzer target: `ibahprobe report` reads what probers on many hosts
 * wrote, and anyone who can write one of those files chooses its bytes.
 * Any input is read whole or refused with FILE:LINE; what is read is
 * built into a matrix and drawn in all four forms. Oracles: the JSON form
 * (-j, plain and --pretty) is one strict JSON document of valid UTF-8;
 * the SVG and the HTML page are well-formed XML of valid UTF-8 made of
 * the template's elements only (no script, no foreign element, no event
 * handler), whatever the names in the input; the text form, meant for a
 * terminal, is valid UTF-8 without a control character (C0 but tab and
 * newline, DEL, C1) or a bidi control, the set lib/base/text_escape.h
 * escapes. And the scanner that reads the common shape of a result
 * (lib/report/result_scan.h) makes of every input what json-c alone makes of it:
 * the same message, or the same -j document. After a record separator
 * (0x1e) the input goes on as --traces (lib/report/report_traces.h): read whole
 * or refused with its label, and, when read, joined with the results so
 * that every form also draws the suspects on the path. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <json-c/json.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "base/diag.h"
#include "out/output.h"
#include "report/report_input.h"
#include "report/report_matrix.h"
#include "report/render/report_render.h"
#include "report/report_traces.h"
#include "utf8_check.h"

#define LABEL "fuzz.jsonl"
#define TRACES_LABEL "fuzz.traces"
/* A --title with everything markup must escape. */
#define TITLE "fabric <report> & \"title\" 'x'"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The elements lib/report/render/report_render_svg.c and
 * report_render_html.c write. */
static const char *const template_elements[] = {
	"svg", "g", "rect", "text", "title",
	"html", "head", "meta", "style", "body", "h1", "h2", "p", "ul", "li",
	"table", "thead", "tbody", "tr", "th", "td", "span",
	/* The suspects list above the heat map (report_render_suspects_html.c). */
	"div", "ol", "b",
};

/* The output layer writes to standard output: a memory file stands in for
 * it, so each form can be read back. libFuzzer reports on stderr. */
static int stdout_fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	stdout_fd = memfd_create("fuzz-report-stdout", 0);
	if (stdout_fd < 0 || dup2(stdout_fd, STDOUT_FILENO) < 0)
		abort();
	xmlInitParser();
	return 0;
}

static void stdout_rewind(void)
{
	fflush(stdout);
	if (ftruncate(STDOUT_FILENO, 0) != 0 ||
	    lseek(STDOUT_FILENO, 0, SEEK_SET) != 0)
		abort();
}

/* What reached standard output since stdout_rewind(), NUL-terminated. */
static char *stdout_take(size_t *len)
{
	off_t end;
	char *buf;

	fflush(stdout);
	end = lseek(STDOUT_FILENO, 0, SEEK_CUR);
	if (end < 0)
		abort();
	buf = malloc((size_t)end + 1);
	if (!buf || pread(STDOUT_FILENO, buf, (size_t)end, 0) != end)
		abort();
	buf[end] = '\0';
	*len = (size_t)end;
	return buf;
}

static void check_json(const char *doc, size_t len)
{
	struct json_tokener *tok;
	json_object *root;

	/* One document and its newline; valid UTF-8 (RFC 8259 8.1). */
	if (len < 2 || doc[len - 1] != '\n' || memchr(doc, '\0', len) ||
	    !utf8_valid(doc, len, false))
		__builtin_trap();
	tok = json_tokener_new();
	if (!tok)
		abort();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
					    JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, doc, (int)len - 1);
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len - 1 ||
	    !json_object_is_type(root, json_type_object))
		__builtin_trap();
	json_object_put(root);
	json_tokener_free(tok);
}

static bool terminal_safe(uint32_t cp)
{
	if (cp < 0x20)
		return cp == '\n' || cp == '\t';
	return !(cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c ||
		 cp == 0x200e || cp == 0x200f ||
		 (cp >= 0x202a && cp <= 0x202e) ||
		 (cp >= 0x2066 && cp <= 0x2069));
}

static void check_text(const char *doc, size_t len)
{
	const uint8_t *s = (const uint8_t *)doc;
	uint32_t cp;

	for (size_t i = 0, n; i < len; i += n) {
		n = utf8_next(s + i, len - i, &cp);
		if (!n || !terminal_safe(cp))
			__builtin_trap();
	}
}

static bool template_element(const char *name)
{
	for (size_t i = 0;
	     i < sizeof(template_elements) / sizeof(template_elements[0]); i++)
		if (strcmp(name, template_elements[i]) == 0)
			return true;
	return false;
}

static void check_nodes(xmlNode *node)
{
	for (; node; node = node->next) {
		switch (node->type) {
		case XML_ELEMENT_NODE:
			if (!template_element((const char *)node->name))
				__builtin_trap();
			for (xmlAttr *a = node->properties; a; a = a->next)
				if (strncmp((const char *)a->name, "on", 2) ==
					    0 ||
				    strcmp((const char *)a->name, "href") == 0)
					__builtin_trap();
			check_nodes(node->children);
			break;
		case XML_TEXT_NODE:
		case XML_DTD_NODE:
			break;
		default:	/* comments, PIs, CDATA, entity references */
			__builtin_trap();
		}
	}
}

static void check_markup(const char *doc, size_t len, const char *root_name)
{
	xmlDoc *xml;
	xmlNode *root;

	if (!utf8_valid(doc, len, true))
		__builtin_trap();
	xml = xmlReadMemory(doc, (int)len, "fuzz.xml", "UTF-8",
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
				    XML_PARSE_NOWARNING);
	if (!xml)
		__builtin_trap();	/* not well-formed */
	root = xmlDocGetRootElement(xml);
	if (!root || strcmp((const char *)root->name, root_name) != 0)
		__builtin_trap();
	check_nodes(xmlDocGetRootElement(xml));
	xmlFreeDoc(xml);
}

static void render_through_output(const struct report *r, bool json,
				  bool pretty)
{
	char *doc;
	size_t len;

	stdout_rewind();
	out_init(json ? OUT_JSON : OUT_TEXT, pretty);
	if (json && report_render_json(stdout, r, pretty))
		abort();
	if (!json)
		report_render_text(r);
	if (out_finish() != 0)
		abort();
	doc = stdout_take(&len);
	if (json)
		check_json(doc, len);
	else
		check_text(doc, len);
	free(doc);
}

static void render_markup(const struct report *r, bool html)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);

	if (!f)
		abort();
	if (html)
		report_render_html(f, r, TITLE);
	else
		report_render_svg(f, r, TITLE);
	if (fclose(f) != 0)
		abort();
	check_markup(doc, len, html ? "html" : "svg");
	free(doc);
}

/* The -j document of r built, or the message that stopped it. */
static char *outcome(struct report *r, int read_rc, const char *read_err)
{
	char err[DIAG_MSG_MAX * 2], *doc = NULL;
	size_t len = 0;
	FILE *f;

	if (read_rc)
		return strdup(read_err);
	if (report_build(r, err, sizeof(err)) != 0)
		return strdup(err);
	f = open_memstream(&doc, &len);
	if (!f || report_render_json(f, r, false) || fclose(f))
		abort();
	return doc;
}

/* The same input read by json-c alone (scanner off) ends alike. */
static void check_scanner(const char *buf, size_t size)
{
	struct report fast, exact;
	char err_fast[DIAG_MSG_MAX * 2] = "", err_exact[DIAG_MSG_MAX * 2] = "";
	char *a, *b;
	int rc;

	report_init(&fast);
	report_init(&exact);
	rc = report_read_buffer(&fast, LABEL, buf, size, NULL, err_fast,
				sizeof(err_fast));
	a = outcome(&fast, rc, err_fast);
	report_input_use_scanner(false);
	rc = report_read_buffer(&exact, LABEL, buf, size, NULL, err_exact,
				sizeof(err_exact));
	report_input_use_scanner(true);
	b = outcome(&exact, rc, err_exact);
	if (!a || !b || strcmp(a, b) != 0)
		__builtin_trap();
	free(a);
	free(b);
	report_free(&fast);
	report_free(&exact);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report r;
	struct report_traces traces = { 0 };
	struct report_path_suspects ps = { 0 };
	char err[DIAG_MSG_MAX * 2];
	char *buf;
	const uint8_t *sep = memchr(data, 0x1e, size);
	size_t tsize = 0;
	const char *tdata = NULL;

	/* The input and the NUL that report_read_stream puts after it (the
	 * reader relies on it to end a number at the end of the input),
	 * nothing more: ASan sees any read past them. */
	if (sep) {
		tdata = (const char *)sep + 1;
		tsize = size - (size_t)(sep - data) - 1;
		size = (size_t)(sep - data);
	}
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	check_scanner(buf, size);
	report_init(&r);
	err[0] = '\0';
	if (report_read_buffer(&r, LABEL, buf, size, NULL, err,
			       sizeof(err)) != 0) {
		if (strncmp(err, LABEL ":", strlen(LABEL) + 1) != 0)
			__builtin_trap();	/* FILE:LINE: what */
		goto out;
	}
	if (report_build(&r, err, sizeof(err)) != 0) {
		if (!err[0])
			__builtin_trap();
		goto out;
	}
	if (tdata) {
		err[0] = '\0';
		if (report_traces_read_buffer(&traces, TRACES_LABEL, tdata, tsize,
					      err, sizeof(err)) != 0) {
			if (strncmp(err, TRACES_LABEL ":",
				    strlen(TRACES_LABEL) + 1) != 0)
				__builtin_trap();
		} else if (report_path_suspects_find(&ps, &r, &traces) == 0) {
			r.path_suspects = &ps;
		}
	}
	render_through_output(&r, true, false);
	render_through_output(&r, true, true);
	render_through_output(&r, false, false);
	render_markup(&r, false);
	render_markup(&r, true);
	(void)report_all_fine(&r);
out:
	report_free(&r);
	report_path_suspects_free(&ps);
	report_traces_free(&traces);
	free(buf);
	return 0;
}
