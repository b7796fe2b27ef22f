/* probe --dry-run's rows for groups; see mcast_dry_run.h. */
#include "base/gid.h"
#include "out/output.h"
#include "probe/mcast_dry_run.h"
#include "verbs/ah_print.h"
#include "wire/mcmember_print.h"

/* Opens the row: dest and status; a row that was not built ends here
 * with its error (false). */
static bool print_head(const struct dest *d, bool built, const char *error)
{
	out_open_object(NULL);
	out_string("dest", "%s", d->text);
	out_string("status", ": %s", built ? "resolved" : "error");
	if (built)
		return true;
	out_string("error", " %s", error);
	out_newline();
	out_close_object();
	return false;
}

/* The group's DGID (and where it came from, with no path). */
static void print_dgid(const union ibv_gid *dgid)
{
	char gid[GID_TEXT_MAX];

	out_string("dgid", "\n    dgid %s", gid_format(dgid, gid, sizeof(gid)));
	out_string("dgid_source", " (%s)", "group");
	out_null("path", NULL);
}

/* The AH and its checks, and closes the row; whether it passes. */
static bool print_ah_and_close(const struct ibv_ah_attr *attr,
			       const struct ah_port_facts *facts)
{
	struct ah_check check;

	ah_check(attr, facts, &check);
	out_open_array("ahs");
	out_open_object(NULL);
	out_string("status", "\n    %s", check.errors ? "invalid" : "valid");
	out_text("\n    ");
	ah_attr_print("ah_attr", attr);
	ah_check_print("violations", &check);
	out_close_object();
	out_close_array();
	out_newline();
	out_close_object();
	return check.errors == 0;
}

/* The members the SA lists, as probe would expect them. */
static void print_listing(const struct mcast_listing *l)
{
	char gid[GID_TEXT_MAX];

	out_bool("listing_known", NULL, l->known);
	if (l->known) {
		out_null("listing_why_not", NULL);
		out_text("\n    the SA lists %zu member%s", l->count,
			 l->count == 1 ? "" : "s");
	} else {
		out_string("listing_why_not", "\n    listing unknown: %s",
			   l->why_not);
	}
	out_open_array("listed_members");
	for (size_t i = 0; i < l->count; i++)
		out_element_string("\n      %s",
				   gid_format(&l->gids[i], gid, sizeof(gid)));
	out_close_array();
}

static bool print_row(const struct dest *d, const struct mcast_target *t,
		      const struct mcast_listing *listing,
		      const struct ah_port_facts *facts)
{
	bool ok = true;

	if (!print_head(d, t->built, t->error))
		return false;
	out_uint("qkey", NULL, t->group.qkey);
	print_dgid(&t->group.mgid);
	out_uint("pkey", "\n    partition pkey 0x%04x", t->group.pkey);
	mcmember_print("group", "\n    ", &t->group);
	if (t->has_joinability) {
		out_bool("joinable", NULL, t->joinability.joinable);
		out_string("joinable_reason", "\n    %s", t->joinable_words);
		ok = t->joinability.joinable;
	}
	print_listing(listing);
	return print_ah_and_close(&t->attr, facts) && ok;
}

bool mcast_dry_run_print(const struct dest_list *dests,
			 const struct mcast_target *targets,
			 const struct mcast_listing *listings,
			 const struct ah_port_facts *facts)
{
	bool all_ok = true;

	out_open_array(NULL);
	for (size_t i = 0; i < dests->count; i++)
		all_ok = print_row(&dests->items[i], &targets[i],
				   &listings[i], facts) &&
			 all_ok;
	out_close_array();
	return all_ok;
}

static bool print_roce_row(const struct dest *d,
			   const struct mcast_roce_target *t,
			   const struct ah_port_facts *facts)
{
	if (!print_head(d, t->built, t->error))
		return false;
	out_uint("qkey", NULL, t->qkey);
	print_dgid(&t->attr.grh.dgid);
	out_null("pkey", NULL);
	out_null("group", NULL);
	if (t->sgid_given) {
		out_text("\n    sgid_index given (-g)");
		out_null("sgid_choice", NULL);
	} else {
		out_text("\n    sgid: %s", t->sgid_choice.reason);
		sgid_choice_print("sgid_choice", &t->sgid_choice);
	}
	return print_ah_and_close(&t->attr, facts);
}

bool mcast_dry_run_print_roce(const struct dest_list *dests,
			      const struct mcast_roce_target *targets,
			      const struct ah_port_facts *facts)
{
	bool all_ok = true;

	out_open_array(NULL);
	for (size_t i = 0; i < dests->count; i++)
		all_ok = print_roce_row(&dests->items[i], &targets[i],
					facts) &&
			 all_ok;
	out_close_array();
	return all_ok;
}
