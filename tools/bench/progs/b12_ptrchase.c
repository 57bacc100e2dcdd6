/* b12_ptrchase: pointer chasing: a linked list of 64 Ki nodes in a random permutation of
 * memory (walked many times, each step a dependent load), a binary search tree of random
 * keys (insertions and lookups) and a chained hash map whose buckets lie 8 KiB apart.
 * Expected output: list=0xaaa10000 tree=0x003a48d4 map=0x34eab2c4 */
#include "rt.h"
#define NL 65536
struct node { struct node *next; u32 val; u32 pad; };
static struct node nodes[NL];
static u32 perm[NL];
struct tnode { struct tnode *l, *r; u32 key, cnt; };
static struct tnode tnodes[32768];
static u32 ntn;
struct ent { struct ent *next; u32 key, val; };
static struct ent ents[16384];
static struct ent *buckets[64][2048];   /* rows 8 KiB apart */
static u32 seed = 31337;
static u32 rnd(void) { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return seed; }
static struct tnode *insert(struct tnode *t, u32 key)
{
    struct tnode **pp = &t, *root = t;
    while (*pp) {
        if (key == (*pp)->key) { (*pp)->cnt++; return root; }
        pp = key < (*pp)->key ? &(*pp)->l : &(*pp)->r;
    }
    struct tnode *n = &tnodes[ntn++];
    n->key = key; n->cnt = 1; n->l = n->r = 0;
    *pp = n;
    return root ? root : n;
}
static u32 lookup(const struct tnode *t, u32 key)
{
    u32 depth = 0;
    while (t && t->key != key) { t = key < t->key ? t->l : t->r; depth++; }
    return t ? t->cnt + depth : depth;
}
int main(void)
{
    for (u32 i = 0; i < NL; i++) perm[i] = i;
    for (u32 i = NL - 1; i > 0; i--) { u32 j = rnd() % (i + 1), t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
    for (u32 i = 0; i < NL; i++) {
        nodes[perm[i]].next = &nodes[perm[(i + 1) % NL]];
        nodes[perm[i]].val = i * 2654435761u;
    }
    u32 lh = 0;
    for (int r = 0; r < 12; r++) {
        const struct node *n = &nodes[perm[r]];
        for (u32 k = 0; k < NL; k++) { lh = (lh ^ n->val) * 16777619u + k; n = n->next; }
    }
    struct tnode *root = 0;
    for (u32 i = 0; i < 30000; i++) root = insert(root, rnd() % 100000);
    u32 th = 0;
    for (u32 i = 0; i < 200000; i++) th += lookup(root, rnd() % 100000);
    u32 ne = 0, mh = 0;
    for (u32 i = 0; i < 16384; i++) {
        u32 key = rnd();
        struct ent *e = &ents[ne++];
        struct ent **b = &buckets[key & 63][(key >> 6) & 2047];
        e->key = key; e->val = i; e->next = *b; *b = e;
    }
    for (int r = 0; r < 40; r++)
        for (u32 i = 0; i < 16384; i += 3) {
            u32 key = ents[(i * 7919u + (u32)r) % 16384].key ^ (r & 1);
            for (struct ent *e = buckets[key & 63][(key >> 6) & 2047]; e; e = e->next)
                if (e->key == key) { mh += e->val; break; }
        }
    put_str("list="); put_hex(lh); put_str(" tree="); put_hex(th); put_str(" map="); put_hex(mh);
    put_str("\n");
    return 0;
}
