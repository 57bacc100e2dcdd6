// SPDX-License-Identifier: MIT
// HVM conformance, vCPUs and the virtual interrupt controller with three vCPUs (HVM
// specification VM_Spec.adoc Rev A, sections 6.2-6.7, 10.3, 10.4 and App. A VMSTART,
// VMSTOP, VMVPID, VMWAIT, VMINTOP): vmstart's answers and the new vCPU's state, vmstop
// (nothing after it runs; its vCPU can be started again), a bad start address faulting on
// the new vCPU, per-vCPU local enables, affinity as local enables, at most one vCPU taking
// an interrupt, and vmwait woken by an interrupt posted on another vCPU, with interrupts
// off and on. vCPU 0 drives; vCPUs 1 and 2 run commands it leaves in cmd[].
#include "hvm.h"

#define NV 3

static volatile u32 cmd[NV], arg[NV], res[NV];
static volatile u32 takes[NV][32];
static volatile u32 ge_cause[NV], ge_elr[NV], ge_n[NV];
static volatile u32 wait_next[NV], int_elr[NV];
static volatile u32 start_ie[NV], start_sp[NV], start_seen[NV], start_id[NV];
volatile u32 stop_leak;
static u32 stk[NV][512] __attribute__((aligned(8)));
static u32 l1[1024] __attribute__((aligned(4096)));
static u32 l2[1024] __attribute__((aligned(4096)));
static u32 page[1024] __attribute__((aligned(4096)));

void hvm_event(u32 slot, u32 *rec)
{
    u32 id = (u32)vmvpid();
    if (slot == 7) {
        takes[id][GSR_CAUSE(rec[1]) & 31]++;   // left globally disabled: taken once
        int_elr[id] = rec[0];
    } else if (slot == 2) {
        ge_cause[id] = GSR_CAUSE(rec[1]);
        ge_elr[id] = rec[0];
        ge_n[id]++;
        if (id != 0)
            vmstop();
        rec[0] += 4;
    }
}

static void worker(void)
{
    u32 id = (u32)vmvpid(), sp;
    __asm__ volatile("%0 = r29" : "=r"(sp));
    start_id[id] = id;
    start_ie[id] = (u32)vmgetie();
    start_sp[id] = sp;
    start_seen[id] = *(volatile u32 *)0x40000000;   // only the creator's map has it
    for (;;) {
        u32 c = cmd[id];
        if (c) {
            res[id] = ((u32 (*)(u32))c)(arg[id]);
            cmd[id] = 0;
        } else {
            vmyield();
        }
    }
}

static void post_cmd(u32 id, u32 (*fn)(u32), u32 a)
{
    arg[id] = a;
    cmd[id] = (u32)fn;
}

static u32 wait_cmd(u32 id)
{
    for (u32 i = 0; cmd[id] && i < 100000; i++)
        vmyield();
    CHECK_EQ(cmd[id], 0);
    return res[id];
}

static u32 run_on(u32 id, u32 (*fn)(u32), u32 a)
{
    post_cmd(id, fn, a);
    return wait_cmd(id);
}

static u32 f_status(u32 n) { return (u32)vmintop(STATUS, n, 0); }
static u32 f_locen(u32 n) { return (u32)vmintop(LOCEN, n, 0); }
static u32 f_locdis(u32 n) { return (u32)vmintop(LOCDIS, n, 0); }
static u32 f_get(u32 n) { (void)n; return (u32)vmintop(GET, 0, 0); }
static u32 f_setie(u32 on) { return (u32)vmsetie(on); }
static u32 f_wait(u32 n)
{
    (void)n;
    register u32 r0 __asm__("r0");
    u32 next;
    __asm__ volatile("trap1(#16)\n %1 = pc" : "=r"(r0), "=r"(next) : : "r1", "r2", "r3", "memory");
    wait_next[vmvpid()] = next;
    return r0;
}
static u32 f_stop(u32 n)
{
    (void)n;
    __asm__ volatile("r1 = ##stop_leak\n r0 = #1\n trap1(#19)\n memw(r1+#0) = r0"
                     ::: "r0", "r1", "memory");
    return 0;
}

static u32 status_on(u32 id, u32 n) { return id ? run_on(id, f_status, n) : (u32)vmintop(STATUS, n, 0); }

static void spin(void)
{
    for (u32 i = 0; i < 50; i++)
        vmyield();
}

static u32 total(u32 n)
{
    return takes[0][n] + takes[1][n] + takes[2][n];
}

int main(void)
{
    map_low(l1, 0);
    l1[0x40000000 >> 22] = (u32)l2 | 0;                          // 4K pages
    l2[0] = (u32)page | PTE_R | PTE_W | PTE_C(7);
    page[0] = 0x5eed5eed;
    CHECK_EQ(vmnewmap(l1), 0);

    CASE("A vmstart, 10.4", "answers the new vCPU's number (1, then 2), -1 when none is "
         "free") {
        CHECK_EQ(vmstart(worker, &stk[1][512]), 1);
        CHECK_EQ(vmstart(worker, &stk[2][512]), 2);
        CHECK_EQ(vmstart(worker, &stk[2][512]), -1);
        spin();
    }
    CASE("10.4/6.6/A vmstart", "a new vCPU runs in guest mode at r0 with SP = r1, "
         "interrupts disabled, the creator's memory map, its own number from vmvpid") {
        for (u32 id = 1; id < NV; id++) {
            CHECK_EQ(start_id[id], id);
            CHECK_EQ(start_ie[id], 0);
            CHECK(start_sp[id] <= (u32)&stk[id][512] && start_sp[id] > (u32)&stk[id][400]);
            CHECK_EQ(start_seen[id], 0x5eed5eed);
        }
    }
    CASE("6.2/6.4 Interrupt masks", "local enables are per vCPU: STATUS on each vCPU shows "
         "its own") {
        CHECK_EQ(run_on(1, f_locen, 10), 0);
        CHECK_EQ(status_on(0, 10), 4);
        CHECK_EQ(status_on(1, 10), 4 | 2);
        CHECK_EQ(status_on(2, 10), 4);
        CHECK_EQ(run_on(1, f_locdis, 10), 0);
        CHECK_EQ(status_on(1, 10), 4);
    }
    CASE("6.7 vmintop affinity", "affinity locally enables the interrupt on the target vCPU "
         "and locally disables it on all others") {
        vmintop(LOCEN, 9, 0);
        run_on(1, f_locen, 9);
        run_on(2, f_locen, 9);
        CHECK_EQ(vmintop(AFFINITY, 9, 2), 0);
        CHECK_EQ(status_on(0, 9), 4);
        CHECK_EQ(status_on(1, 9), 4);
        CHECK_EQ(status_on(2, 9), 4 | 2);
        CHECK_EQ(vmintop(AFFINITY, 9, 1), 0);
        CHECK_EQ(status_on(1, 9), 4 | 2);
        CHECK_EQ(status_on(2, 9), 4);
        CHECK(vmintop(AFFINITY, 9, NV) != 0);             // no such vCPU
        CHECK_EQ(status_on(1, 9), 4 | 2);
    }
    CASE("6.2/6.7", "a posted interrupt goes to the vCPU its affinity names") {
        for (u32 id = 1; id < NV; id++)
            run_on(id, f_setie, 1);
        vmsetie(1);
        CHECK_EQ(vmintop(AFFINITY, 9, 2), 0);
        CHECK_EQ(vmintop(POST, 9, 0), 0);
        spin();
        CHECK_EQ(takes[2][9], 1);
        CHECK_EQ(total(9), 1);
        CHECK_EQ(vmintop(STATUS, 9, 0), 0);               // taken: globally disabled
        vmintop(GLOBEN, 9, 0);
        CHECK_EQ(vmintop(AFFINITY, 9, 0), 0);
        vmintop(POST, 9, 0);
        spin();
        CHECK_EQ(takes[0][9], 1);
        CHECK_EQ(total(9), 2);
        vmintop(LOCDIS, 9, 0);
        vmintop(GLOBEN, 9, 0);
    }
    CASE("6.2 Virtual interrupt controller", "enabled on all three vCPUs, an interrupt is "
         "taken by exactly one, then disabled globally (6.5) until GLOBEN") {
        for (u32 id = 0; id < NV; id++)
            id ? run_on(id, f_locen, 8) : (u32)vmintop(LOCEN, 8, 0);
        vmintop(POST, 8, 0);
        spin();
        CHECK_EQ(total(8), 1);
        CHECK_EQ(vmintop(STATUS, 8, 0), 2);
        vmintop(GLOBEN, 8, 0);
        spin();
        CHECK_EQ(total(8), 1);                            // not pending any more
        vmintop(POST, 8, 0);
        spin();
        CHECK_EQ(total(8), 2);
        for (u32 id = 0; id < NV; id++)
            id ? run_on(id, f_locdis, 8) : (u32)vmintop(LOCDIS, 8, 0);
        vmintop(GLOBEN, 8, 0);
    }
    CASE("6.2/A vmintop GET", "GET on a vCPU that has the interrupt locally disabled finds "
         "nothing; on the one that has it enabled it takes it") {
        for (u32 id = 0; id < NV; id++)
            id ? run_on(id, f_setie, 0) : (u32)vmsetie(0);
        run_on(2, f_locen, 14);
        vmintop(POST, 14, 0);
        CHECK_EQ(vmintop(GET, 0, 0), -1);
        CHECK_EQ(run_on(1, f_get, 0), -1);
        CHECK_EQ(run_on(2, f_get, 0), 14);
        CHECK_EQ(vmintop(STATUS, 14, 0), 0);
        vmintop(GLOBEN, 14, 0);
        run_on(2, f_locdis, 14);
    }
    CASE("A vmwait, 10.3", "interrupts disabled: an interrupt posted by another vCPU "
         "resumes the waiting vCPU after vmwait with its number in r0, not taken") {
        run_on(1, f_locen, 11);
        post_cmd(1, f_wait, 0);
        spin();
        CHECK(cmd[1] != 0);                               // still waiting
        vmintop(POST, 11, 0);
        CHECK_EQ(wait_cmd(1), 11);
        CHECK_EQ(total(11), 0);
        CHECK_EQ(status_on(1, 11), 4 | 2 | 1);            // still pending
        vmintop(CLEAR, 11, 0);
        run_on(1, f_locdis, 11);
    }
    CASE("A vmwait, 10.3", "interrupts enabled: the interrupt is taken with GELR after the "
         "vmwait, and after vmrte r0 holds its number") {
        run_on(2, f_locen, 12);
        run_on(2, f_setie, 1);
        post_cmd(2, f_wait, 0);
        spin();
        CHECK(cmd[2] != 0);
        vmintop(POST, 12, 0);
        CHECK_EQ(wait_cmd(2), 12);
        CHECK_EQ(takes[2][12], 1);
        CHECK_EQ(int_elr[2], wait_next[2]);
        CHECK_EQ(total(12), 1);
        run_on(2, f_setie, 0);
        run_on(2, f_locdis, 12);
        vmintop(GLOBEN, 12, 0);
    }
    CASE("10.4/A vmstop", "vmstop ends the vCPU (the instruction after it is not issued) and "
         "frees it for a later vmstart") {
        post_cmd(2, f_stop, 0);
        spin();
        CHECK_EQ(stop_leak, 0);
        cmd[2] = 0;                                       // a stopped vCPU leaves it set
        CHECK_EQ(vmstart(worker, &stk[2][512]), 2);
        spin();
        CHECK_EQ(run_on(2, f_status, 10), 4);             // the new vCPU 2 runs commands
    }
    CASE("A vmstart (Notes)", "a start address that is not valid: the new vCPU takes the "
         "execute protection violation (0x11), with GELR at that address") {
        post_cmd(2, f_stop, 0);
        spin();
        cmd[2] = 0;
        CHECK_EQ(vmstart((void *)0x50000000, &stk[2][512]), 2);
        spin();
        CHECK_EQ(ge_n[2], 1);
        CHECK_EQ(ge_cause[2], 0x11);
        CHECK_EQ(ge_elr[2], 0x50000000);
        CHECK_EQ(ge_n[0], 0);
        CHECK_EQ(vmstart(worker, &stk[2][512]), 2);       // it stopped in its handler
    }
    for (u32 id = 1; id < NV; id++)
        post_cmd(id, f_stop, 0);
    spin();
    finish("spec_vcpu");
    return 0;
}
