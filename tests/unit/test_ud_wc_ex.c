/* Unit tests of ud_wc_from_cq_ex: a struct ibv_wc filled through the
 * ibv_wc_read_* readers of an extended CQ, here a fake whose readers
 * return fixed values, as a provider's would for the current CQE. */
#include <endian.h>
#include <string.h>

#include "verbs/ud_endpoint.h"
#include "tap.h"

static enum ibv_wc_opcode fake_opcode(struct ibv_cq_ex *cq)
{
	(void)cq;
	return IBV_WC_RECV;
}

static uint32_t fake_vendor_err(struct ibv_cq_ex *cq)
{
	(void)cq;
	return 0x32;
}

static uint32_t fake_byte_len(struct ibv_cq_ex *cq)
{
	(void)cq;
	return 140;
}

static __be32 fake_imm(struct ibv_cq_ex *cq)
{
	(void)cq;
	return htobe32(0x1234);
}

static uint32_t fake_qp_num(struct ibv_cq_ex *cq)
{
	(void)cq;
	return 0x111;
}

static uint32_t fake_src_qp(struct ibv_cq_ex *cq)
{
	(void)cq;
	return 0x222;
}

static unsigned int fake_wc_flags(struct ibv_cq_ex *cq)
{
	(void)cq;
	return IBV_WC_GRH;
}

static uint32_t fake_slid(struct ibv_cq_ex *cq)
{
	(void)cq;
	return 0x17;
}

static uint8_t fake_sl(struct ibv_cq_ex *cq)
{
	(void)cq;
	return 5;
}

static uint8_t fake_path_bits(struct ibv_cq_ex *cq)
{
	(void)cq;
	return 3;
}

static void fake_cq(struct ibv_cq_ex *cq, enum ibv_wc_status status)
{
	memset(cq, 0, sizeof(*cq));
	cq->wr_id = 0x8000000000000007ull;
	cq->status = status;
	cq->read_opcode = fake_opcode;
	cq->read_vendor_err = fake_vendor_err;
	cq->read_byte_len = fake_byte_len;
	cq->read_imm_data = fake_imm;
	cq->read_qp_num = fake_qp_num;
	cq->read_src_qp = fake_src_qp;
	cq->read_wc_flags = fake_wc_flags;
	cq->read_slid = fake_slid;
	cq->read_sl = fake_sl;
	cq->read_dlid_path_bits = fake_path_bits;
}

int main(void)
{
	struct ibv_cq_ex cq;
	struct ibv_wc wc;

	fake_cq(&cq, IBV_WC_SUCCESS);
	memset(&wc, 0xa5, sizeof(wc));
	ud_wc_from_cq_ex(&cq, IBV_WC_STANDARD_FLAGS, 4, &wc);
	ok(wc.wr_id == 0x8000000000000007ull, "wr_id from the CQ");
	is_int(wc.status, IBV_WC_SUCCESS, "status from the CQ");
	ok(ud_wc_is_recv(&wc), "a receive by its wr_id");
	is_int(wc.opcode, IBV_WC_RECV, "opcode");
	is_int(wc.byte_len, 140, "byte_len");
	is_int(wc.qp_num, 0x111, "qp_num");
	is_int(wc.src_qp, 0x222, "src_qp");
	is_int(wc.wc_flags, IBV_WC_GRH, "wc_flags");
	is_int(wc.slid, 0x17, "slid");
	is_int(wc.sl, 5, "sl");
	is_int(wc.dlid_path_bits, 3, "dlid_path_bits");
	is_int(wc.pkey_index, 4, "pkey_index: the QP's own (no reader)");
	is_int(wc.vendor_err, 0, "vendor_err only after an error");
	is_int(wc.imm_data, 0, "no immediate without IBV_WC_WITH_IMM");

	/* irdma's set: the standard flags without DLID_PATH_BITS. */
	memset(&wc, 0xa5, sizeof(wc));
	cq.read_dlid_path_bits = NULL;
	ud_wc_from_cq_ex(&cq, IBV_WC_STANDARD_FLAGS &
			 ~IBV_WC_EX_WITH_DLID_PATH_BITS, 0, &wc);
	is_int(wc.dlid_path_bits, 0, "a field not asked for is 0, its "
	       "reader not called");
	is_int(wc.sl, 5, "the others still read");

	/* An error: only wr_id, status, qp_num, vendor_err (ibv_poll_cq(3)). */
	fake_cq(&cq, IBV_WC_WR_FLUSH_ERR);
	cq.read_byte_len = NULL;
	cq.read_opcode = NULL;
	memset(&wc, 0xa5, sizeof(wc));
	ud_wc_from_cq_ex(&cq, IBV_WC_STANDARD_FLAGS, 4, &wc);
	is_int(wc.status, IBV_WC_WR_FLUSH_ERR, "error status");
	is_int(wc.vendor_err, 0x32, "vendor_err after an error");
	is_int(wc.qp_num, 0x111, "qp_num after an error");
	is_int(wc.byte_len, 0, "byte_len not read after an error");
	return tap_done();
}
