/* The count question and its answer; see rendezvous_count.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/gid.h"
#include "base/parse.h"
#include "peer/rendezvous.h"
#include "peer/rendezvous_count.h"

#define COUNT_VERSION 1

static char *to_line(json_object *root)
{
	char *line = NULL;

	if (asprintf(&line, "%s\n",
		     json_object_to_json_string_ext(
			     root, JSON_C_TO_STRING_PLAIN |
					   JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		line = NULL;
	json_object_put(root);
	return line;
}

char *rendezvous_count_question_encode(const struct rendezvous_count_question *q)
{
	json_object *root = json_object_new_object();
	char gid[GID_TEXT_MAX];

	if (!root)
		return NULL;
	json_object_object_add(root, "question",
			       json_object_new_string("count"));
	json_object_object_add(root, "probe_id",
			       json_object_new_int64(q->probe_id));
	json_object_object_add(root, "qpn", json_object_new_int64(q->qpn));
	json_object_object_add(root, "gid",
			       json_object_new_string(gid_format(
				       &q->gid, gid, sizeof(gid))));
	json_object_object_add(root, "lid", json_object_new_int(q->lid));
	json_object_object_add(root, "hop_limit",
			       json_object_new_int(q->asked.hop_limit));
	json_object_object_add(root, "traffic_class",
			       json_object_new_int(q->asked.traffic_class));
	json_object_object_add(root, "sl", json_object_new_int(q->asked.sl));
	json_object_object_add(root, "flow_label",
			       json_object_new_int64(q->asked.flow_label));
	json_object_object_add(root, "age_ms",
			       json_object_new_int64(q->age_ms));
	return to_line(root);
}

/* A count member: a whole number from 0 to max (rendezvous_json_int). */
static int64_t get_int(json_object *root, const char *key, int64_t max,
		       bool *ok)
{
	return rendezvous_json_int(root, key, 0, max, ok);
}

int rendezvous_count_question_decode(const char *line,
				     struct rendezvous_count_question *q)
{
	json_object *root = json_tokener_parse(line), *v;
	char err[128];
	bool ok = true;

	memset(q, 0, sizeof(*q));
	if (!root || !json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "question", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), "count") != 0) {
		json_object_put(root);
		return -1;
	}
	q->probe_id = (uint32_t)get_int(root, "probe_id", 0xffffffffLL, &ok);
	q->qpn = (uint32_t)get_int(root, "qpn", 0xffffff, &ok);
	q->lid = (uint16_t)get_int(root, "lid", 0xffff, &ok);
	q->asked.hop_limit = (uint8_t)get_int(root, "hop_limit", 255, &ok);
	q->asked.traffic_class = (uint8_t)get_int(root, "traffic_class", 255,
						  &ok);
	q->asked.sl = (uint8_t)get_int(root, "sl", 255, &ok);
	q->asked.flow_label = (uint32_t)get_int(root, "flow_label",
						0xffffffffLL, &ok);
	q->age_ms = (uint32_t)get_int(root, "age_ms", 0xffffffffLL, &ok);
	if (!json_object_object_get_ex(root, "gid", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    parse_gid(json_object_get_string(v), &q->gid, err, sizeof(err)))
		ok = false;
	json_object_put(root);
	return ok ? 0 : -1;
}

static json_object *reasons_encode(const struct rendezvous_count_answer *a)
{
	json_object *why = json_object_new_object();

	for (int i = 0; why && i < UNANSWERED_COUNT; i++)
		json_object_object_add(why, request_unanswered_name(i),
				       json_object_new_int64(a->unanswered[i]));
	return why;
}

/* The reasons, when the answer has them: a missing one is 0, a bad one
 * makes the answer invalid. */
static bool reasons_decode(json_object *count,
			   struct rendezvous_count_answer *a)
{
	json_object *why;
	bool ok = true;

	if (!json_object_object_get_ex(count, "unanswered", &why))
		return true;
	if (!json_object_is_type(why, json_type_object))
		return false;
	for (int i = 0; i < UNANSWERED_COUNT; i++) {
		const char *name = request_unanswered_name(i);

		if (json_object_object_get_ex(why, name, NULL))
			a->unanswered[i] = (uint32_t)get_int(
				why, name, 0xffffffffLL, &ok);
	}
	a->reasons_known = ok;
	return ok;
}

static json_object *rq_drops_encode(const struct rendezvous_rq_drops *d)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "counter",
			       d->counter_known
				       ? json_object_new_string(d->counter)
				       : NULL);
	if (d->counter_known)
		json_object_object_add(o, "counter_delta",
				       json_object_new_int64(
					       (int64_t)d->counter_delta));
	json_object_object_add(o, "rq_empty",
			       json_object_new_int64((int64_t)d->rq_empty));
	json_object_object_add(o, "covers_run",
			       json_object_new_boolean(d->covers_run));
	return o;
}

/* The receive-drop evidence, when the answer has it: absent is an older
 * serve (present false), a malformed one makes the answer invalid. */
static bool rq_drops_decode(json_object *count, struct rendezvous_rq_drops *d)
{
	json_object *o, *v;
	bool ok = true;

	if (!json_object_object_get_ex(count, "rq_drops", &o))
		return true;
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "counter", &v))
		return false;
	if (v && json_object_is_type(v, json_type_string)) {
		d->counter_known = true;
		snprintf(d->counter, sizeof(d->counter), "%s",
			 json_object_get_string(v));
		d->counter_delta = (uint64_t)get_int(o, "counter_delta",
						     INT64_MAX, &ok);
	} else if (v) {
		return false;
	}
	d->rq_empty = (uint64_t)get_int(o, "rq_empty", INT64_MAX, &ok);
	if (!json_object_object_get_ex(o, "covers_run", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return false;
	d->covers_run = json_object_get_boolean(v);
	d->present = ok;
	return ok;
}

char *rendezvous_count_answer_encode(const struct rendezvous_count_answer *a)
{
	json_object *root = json_object_new_object(), *count;

	if (!root)
		return NULL;
	count = json_object_new_object();
	json_object_object_add(root, "version",
			       json_object_new_int(COUNT_VERSION));
	json_object_object_add(count, "known",
			       json_object_new_boolean(
				       a->state == RENDEZVOUS_COUNT_KNOWN));
	if (a->state == RENDEZVOUS_COUNT_KNOWN) {
		json_object_object_add(count, "received",
				       json_object_new_int64(a->received));
		json_object_object_add(count, "answered",
				       json_object_new_int64(a->answered));
		if (a->reasons_known)
			json_object_object_add(count, "unanswered",
					       reasons_encode(a));
		if (a->after_park_known)
			json_object_object_add(
				count, "answered_after_park",
				json_object_new_int64(a->answered_after_park));
		if (a->rq_drops.present)
			json_object_object_add(count, "rq_drops",
					       rq_drops_encode(&a->rq_drops));
	}
	json_object_object_add(root, "count", count);
	return to_line(root);
}

int rendezvous_count_answer_decode(const char *text,
				   struct rendezvous_count_answer *a,
				   char *err, size_t errlen)
{
	json_object *root = json_tokener_parse(text), *count, *known;
	struct responder_info info;
	bool ok = true;
	int rc = -1;

	memset(a, 0, sizeof(*a));
	if (!root || !json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "the responder's answer is not a JSON "
			 "object (is it an ibahprobe serve?)");
		goto out;
	}
	if (!json_object_object_get_ex(root, "count", &count)) {
		/* The usual responder line: a serve that does not know the
		 * question. Anything else is no serve's answer. */
		if (rendezvous_decode(text, &info, err, errlen))
			goto out;
		a->state = RENDEZVOUS_COUNT_NOT_UNDERSTOOD;
		rc = 0;
		goto out;
	}
	if (!json_object_is_type(count, json_type_object) ||
	    !json_object_object_get_ex(count, "known", &known) ||
	    !json_object_is_type(known, json_type_boolean)) {
		snprintf(err, errlen, "the responder's count answer lacks "
			 "\"known\"");
		goto out;
	}
	if (!json_object_get_boolean(known)) {
		a->state = RENDEZVOUS_COUNT_FORGOTTEN;
		rc = 0;
		goto out;
	}
	a->received = (uint32_t)get_int(count, "received", 0xffffffffLL, &ok);
	a->answered = (uint32_t)get_int(count, "answered", 0xffffffffLL, &ok);
	if (json_object_object_get_ex(count, "answered_after_park", NULL)) {
		a->answered_after_park = (uint32_t)get_int(
			count, "answered_after_park", 0xffffffffLL, &ok);
		a->after_park_known = ok;
	}
	if (ok && !reasons_decode(count, a)) {
		snprintf(err, errlen, "the responder's count answer has an "
			 "invalid \"unanswered\"");
		goto out;
	}
	if (ok && !rq_drops_decode(count, &a->rq_drops)) {
		snprintf(err, errlen, "the responder's count answer has an "
			 "invalid \"rq_drops\"");
		goto out;
	}
	if (!ok) {
		snprintf(err, errlen, "the responder's count answer lacks a "
			 "valid received, answered or "
			 "answered_after_park");
		goto out;
	}
	a->state = RENDEZVOUS_COUNT_KNOWN;
	rc = 0;
out:
	json_object_put(root);
	return rc;
}

int rendezvous_ask_count(const char *host, uint16_t port, uint32_t timeout_ms,
			 const struct rendezvous_count_question *q,
			 struct rendezvous_count_answer *a, char *err,
			 size_t errlen)
{
	char buf[RENDEZVOUS_MAX_BYTES + 1];
	char *question = rendezvous_count_question_encode(q);
	int rc;

	if (!question) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = rendezvous_exchange(host, port, timeout_ms, question, buf,
				 sizeof(buf), err, errlen);
	free(question);
	if (rc)
		return -1;
	return rendezvous_count_answer_decode(buf, a, err, errlen);
}
