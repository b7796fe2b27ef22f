/* Test driver for the SA's multicast groups (lib/sa/mcast_group.h): join,
 * leave, look up, list members and audit one group through the real SA,
 * one line of key=value per record, so sim tests compare with saquery. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/ibrate.h"
#include "sa/mcast_group.h"
#include "sa/mcast_joinable.h"
#include "sa/mcast_sender.h"
#include "sa/mcast_membership.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: sa_mcast [-C ca] [-P port] [-t timeout_ms] [-k sm_key] CMD\n"
		"  join MGID full|sendonly [QKEY PKEY SL MTU_CODE RATE_CODE]\n"
		"  leave MGID full|sendonly\n"
		"  lookup MGID | members MGID | member MGID PORT_GID\n"
		"  caps | audit MGID\n"
		"  sender MGID    a prober's sequence (sa/mcast_sender.h):\n"
		"                 SendOnlyNonMember join, listing (-k), leave\n"
		"  serve GROUP[,GROUP...] QKEY PKEY [given]   serve --mcast's\n"
		"        join, member check, client-reregister rejoin, leave\n"
		"exit: 0 ok, 1 refused or no group, 2 usage, 3 no answer\n");
	exit(2);
}

static void gid_arg(const char *text, union ibv_gid *g)
{
	if (inet_pton(AF_INET6, text, g->raw) != 1)
		usage();
}

static uint8_t state_arg(const char *text)
{
	if (strcmp(text, "full") == 0)
		return MC_JOIN_FULL_MEMBER;
	if (strcmp(text, "sendonly") == 0)
		return MC_JOIN_SEND_ONLY_NON_MEMBER;
	usage();
	return 0;
}

static void print_record(const struct mcmember_record *r)
{
	char mgid[INET6_ADDRSTRLEN], port[INET6_ADDRSTRLEN], js[64];

	inet_ntop(AF_INET6, r->mgid.raw, mgid, sizeof(mgid));
	inet_ntop(AF_INET6, r->port_gid.raw, port, sizeof(port));
	printf("mgid=%s port_gid=%s qkey=0x%08x mlid=0x%04x mtu=%u "
	       "rate=%u pkey=0x%04x sl=%u flow_label=0x%05x hop_limit=%u "
	       "tclass=%u scope=%u join_state=%s proxy_join=%d\n",
	       mgid, port, r->qkey, r->mlid, r->mtu, r->rate, r->pkey, r->sl,
	       r->flow_label, r->hop_limit, r->traffic_class, r->scope,
	       mcmember_join_state_str(r->join_state, js, sizeof(js)),
	       r->proxy_join);
}

static int finish(const struct mcast_result *r)
{
	if (r->status == MCAST_OK)
		return 0;
	printf("error: %s\n", r->error);
	return r->status == MCAST_NO_ANSWER ? 3 : 1;
}

static bool is_member(struct path_session *s, const union ibv_gid *mgid,
		      uint32_t timeout_ms)
{
	struct mcast_result r;

	mcast_group_member_of(s, mgid, &s->sa.port_gid, timeout_ms,
			      MCAST_RETRIES, &r);
	return r.status == MCAST_OK;
}

/* serve --mcast's sequence through its lib calls, without a QP (ibsim
 * has no verbs device): join, the QP's Q_Key, whether the SA lists us,
 * the rejoin of a client reregister, the leave, whether it still does. */
static int serve_sequence(struct path_session *s, int argc, char **argv,
			  uint32_t timeout_ms)
{
	struct mcast_spec_list specs = { 0 };
	struct mcast_membership m = { 0 };
	struct responder_group view[MCAST_SPEC_MAX];
	union ibv_gid mgids[MCAST_SPEC_MAX];
	uint32_t qkey = (uint32_t)strtoul(argv[1], NULL, 0), qp_qkey;
	uint16_t pkey = (uint16_t)strtoul(argv[2], NULL, 0);
	bool given = argc == 4 && strcmp(argv[3], "given") == 0;
	char err[2048], gid[INET6_ADDRSTRLEN];
	size_t count;

	if (mcast_spec_list_add(&specs, argv[0], err, sizeof(err))) {
		printf("error: %s\n", err);
		return 2;
	}
	if (mcast_membership_join_ib(&m, &specs, s, pkey, qkey, timeout_ms,
				     err, sizeof(err))) {
		printf("error: %s\n", err);
		return 1;
	}
	if (mcast_membership_qkey(&m, qkey, given, &qp_qkey, err,
				  sizeof(err))) {
		printf("error: %s\n", err);
		mcast_membership_leave(&m);
		return 1;
	}
	printf("qp_qkey=0x%08x\n", qp_qkey);
	count = m.count;
	mcast_membership_view(&m, view);
	for (size_t i = 0; i < count; i++) {
		mgids[i] = view[i].mgid;
		inet_ntop(AF_INET6, view[i].mgid.raw, gid, sizeof(gid));
		printf("joined group=%s mgid=%s mlid=0x%04x qkey=0x%08x "
		       "join=%s member=%s\n", view[i].group, gid, view[i].mlid,
		       view[i].qkey, view[i].join,
		       is_member(s, &view[i].mgid, timeout_ms) ? "yes" : "no");
	}
	mcast_membership_port_changed(&m, NULL, true);
	for (size_t i = 0; i < count; i++)
		printf("rejoined group=%s mlid=0x%04x member=%s\n",
		       m.groups[i].spec.text, m.groups[i].mlid,
		       is_member(s, &m.groups[i].spec.gid, timeout_ms)
			       ? "yes" : "no");
	mcast_membership_leave(&m);
	for (size_t i = 0; i < count; i++) {
		inet_ntop(AF_INET6, mgids[i].raw, gid, sizeof(gid));
		printf("left mgid=%s member=%s\n", gid,
		       is_member(s, &mgids[i], timeout_ms) ? "yes" : "no");
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct path_session s;
	struct mcast_result r;
	const char *ca = NULL, *cmd;
	unsigned long port = 0;
	uint32_t timeout_ms = 1000;
	uint64_t sm_key = 0;
	char err[512];
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "C:P:t:k:")) != -1) {
		switch (opt) {
		case 'C': ca = optarg; break;
		case 'P': port = strtoul(optarg, NULL, 0); break;
		case 't': timeout_ms = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'k': sm_key = strtoull(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	cmd = argv[optind++];
	argc -= optind;
	argv += optind;
	if (path_session_open(&s, ca, (uint8_t)port, err, sizeof(err)) !=
	    SA_CLIENT_OK) {
		fprintf(stderr, "sa_mcast: %s\n", err);
		return 3;
	}
	if (strcmp(cmd, "join") == 0 && (argc == 2 || argc == 7)) {
		struct mcast_join j = { 0 };

		gid_arg(argv[0], &j.mgid);
		j.join_state = state_arg(argv[1]);
		if (argc == 7) {
			j.create = true;
			j.qkey = (uint32_t)strtoul(argv[2], NULL, 0);
			j.pkey = (uint16_t)strtoul(argv[3], NULL, 0);
			j.sl = (uint8_t)strtoul(argv[4], NULL, 0);
			j.mtu = (uint8_t)strtoul(argv[5], NULL, 0);
			j.rate = (uint8_t)strtoul(argv[6], NULL, 0);
		}
		mcast_group_join(&s, &j, timeout_ms, MCAST_RETRIES, &r);
		if (r.status == MCAST_OK)
			print_record(&r.record);
		rc = finish(&r);
	} else if (strcmp(cmd, "leave") == 0 && argc == 2) {
		union ibv_gid mgid;

		gid_arg(argv[0], &mgid);
		mcast_group_leave(&s, &mgid, state_arg(argv[1]), timeout_ms,
				  MCAST_RETRIES, &r);
		if (r.status == MCAST_OK)
			print_record(&r.record);
		rc = finish(&r);
	} else if (strcmp(cmd, "serve") == 0 && (argc == 3 || argc == 4)) {
		rc = serve_sequence(&s, argc, argv, timeout_ms);
	} else if (strcmp(cmd, "lookup") == 0 && argc == 1) {
		union ibv_gid mgid;

		gid_arg(argv[0], &mgid);
		mcast_group_lookup(&s, &mgid, timeout_ms, MCAST_RETRIES, &r);
		if (r.status == MCAST_OK)
			print_record(&r.record);
		rc = finish(&r);
	} else if (strcmp(cmd, "members") == 0 && argc == 1) {
		struct mcast_members m;
		union ibv_gid mgid;

		gid_arg(argv[0], &mgid);
		mcast_group_members(&s, &mgid, sm_key, timeout_ms,
				    MCAST_RETRIES, &m, &r);
		for (size_t i = 0; i < m.count; i++)
			print_record(&m.records[i]);
		mcast_members_free(&m);
		rc = finish(&r);
	} else if (strcmp(cmd, "sender") == 0 && argc == 1) {
		struct mcast_listing l;
		union ibv_gid mgid;
		char text[INET6_ADDRSTRLEN];

		gid_arg(argv[0], &mgid);
		mcast_sender_join(&s, &mgid, timeout_ms, &r);
		if (r.status == MCAST_OK) {
			printf("joined ");
			print_record(&r.record);
			mcast_sender_listing(&s, &mgid, sm_key, timeout_ms,
					     &l);
			if (!l.known)
				printf("listing unknown: %s\n", l.why_not);
			for (size_t i = 0; i < l.count; i++)
				printf("listed %s\n",
				       inet_ntop(AF_INET6, l.gids[i].raw, text,
						 sizeof(text)));
			mcast_listing_free(&l);
			mcast_sender_leave(&s, &mgid, timeout_ms, &r);
			if (r.status == MCAST_OK)
				printf("left\n");
		}
		rc = finish(&r);
	} else if (strcmp(cmd, "member") == 0 && argc == 2) {
		union ibv_gid mgid, gid;

		gid_arg(argv[0], &mgid);
		gid_arg(argv[1], &gid);
		mcast_group_member_of(&s, &mgid, &gid, timeout_ms,
				      MCAST_RETRIES, &r);
		if (r.status == MCAST_OK)
			print_record(&r.record);
		rc = finish(&r);
	} else if ((strcmp(cmd, "caps") == 0 && argc == 0) ||
		   (strcmp(cmd, "audit") == 0 && argc == 1)) {
		struct mcast_port_caps caps;
		struct mcast_joinability j;
		char words[512];

		if (mcast_port_caps_fetch(&s, timeout_ms, MCAST_RETRIES, &caps,
					  err, sizeof(err))) {
			printf("error: %s\n", err);
			rc = 3;
		} else if (argc == 0) {
			printf("lid=%u mtu_cap=%u active_mtu=%u rate=%u pkeys=",
			       caps.lid, caps.mtu_cap, caps.active_mtu,
			       caps.rate);
			for (size_t i = 0; i < caps.pkey_count; i++)
				printf("%s0x%04x", i ? "," : "", caps.pkeys[i]);
			printf("\n");
		} else {
			union ibv_gid mgid;

			gid_arg(argv[0], &mgid);
			mcast_group_lookup(&s, &mgid, timeout_ms,
					   MCAST_RETRIES, &r);
			if (r.status == MCAST_OK) {
				mcast_joinable_judge(&r.record, &caps, &j);
				mcast_joinable_describe(&r.record, &caps, &j,
							words, sizeof(words));
				printf("%s\n", words);
				rc = j.joinable ? 0 : 1;
			} else {
				rc = finish(&r);
			}
		}
	} else {
		usage();
	}
	path_session_close(&s);
	return rc;
}
