// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kubelet's checkpoints (kubelet-state.c), container cgroups and names
 * (container-find.c) and the JSON reader under them (json-tree.c).  The
 * checksums are the ones the kubelet's own tests carry for these contents.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "container-find.h"
#include "json-tree.h"
#include "kubelet-state.h"
#include "sysfs.h"
#include "tap.h"

static int parse(struct kubelet_state *st, bool cpu, const char *text)
{
	return kubelet_state_parse(st, cpu, text, strlen(text));
}

static void test_fnv(void)
{
	CHECK(kubelet_fnv32a("", 0) == 0x811c9dc5u, "FNV-1a of nothing is its offset basis");
	CHECK(kubelet_fnv32a("a", 1) == 0xe40c292cu, "FNV-1a 32 of \"a\"");
}

static void test_cpu(void)
{
	struct kubelet_state st = { 0 };
	const struct kubelet_assign *a;

	CHECK(parse(&st, true,
		    "{\"policyName\": \"none\", \"defaultCPUSet\": \"4-6\", \"entries\": {}, "
		    "\"checksum\": 354655845}") == 0 &&
		      st.cpu.sum == KUBELET_SUM_OK && st.cpu.used && st.cpu.version == 2,
	      "v2, no entries: the kubelet's checksum verified");
	CHECK(parse(&st, true,
		    "{\"policyName\": \"none\", \"defaultCPUSet\": \"1-3\", \"entries\": "
		    "{\"pod\": {\"container1\": \"4-6\", \"container2\": \"1-3\"}}, "
		    "\"checksum\": 3610638499}") == 0 &&
		      st.cpu.sum == KUBELET_SUM_OK && st.cpu.used,
	      "v2 with a pod's two containers: verified");
	a = kubelet_state_find(&st, "pod", "container1", NULL);
	CHECK(a && a->has_cpus && a->n_cpus == 3 && a->cpus[0] == 4 && a->cpus[2] == 6,
	      "a container's exclusive CPUs");
	kubelet_state_free(&st);
	CHECK(parse(&st, true,
		    "{\"policyName\": \"none\", \"defaultCPUSet\": \"1-3\", \"checksum\": "
		    "1694838852}") == 0 &&
		      st.cpu.sum == KUBELET_SUM_OK && st.cpu.version == 1,
	      "no entries, a v1 checksum: v1 verified after v2 failed");
	CHECK(parse(&st, true,
		    "{\"policyName\":\"static\",\"defaultCPUSet\":\"7-9\",\"entries\":"
		    "{\"containerID1\":\"4-6\",\"containerID2\":\"1-3\"},\"checksum\":2026311253}") ==
			      0 &&
		      st.cpu.sum == KUBELET_SUM_OK && st.cpu.version == 1,
	      "v1 entries by container id: verified");
	a = kubelet_state_find(&st, NULL, NULL, "containerID2");
	CHECK(a && a->n_cpus == 3 && a->cpus[0] == 1, "a v1 entry found by container id");
	kubelet_state_free(&st);
	CHECK(parse(&st, true,
		    "{\"policyName\":\"static\",\"defaultCpuSet\":\"1,3-15,17,19-31\","
		    "\"checksum\":1902567528}") == 0 &&
		      st.cpu.sum == KUBELET_SUM_OK,
	      "the field's own spelling (defaultCpuSet) and Go's case-folded one are both read");
	CHECK(parse(&st, true,
		    "{\"policyName\": \"none\", \"defaultCPUSet\": \"4-6\", \"entries\": {}, "
		    "\"checksum\": 1337}") == 0 &&
		      st.cpu.sum == KUBELET_SUM_BAD && !st.cpu.used &&
		      strstr(st.cpu.why, "does not match"),
	      "a bad checksum: not used, said");
	CHECK(parse(&st, true,
		    "{\"policyName\":\"static\",\"defaultCPUSet\":\"7-9\",\"entries\":{\"pod\":"
		    "{\"c\":\"4-6\"}},\"checksum\":0}") == 0 &&
		      st.cpu.sum == KUBELET_SUM_ZERO && st.cpu.used,
	      "checksum 0: accepted unchecked, as the kubelet does");
	kubelet_state_free(&st);
	CHECK(parse(&st, true,
		    "{\"policyName\":\"static\",\"defaultCPUSet\":\"1-2\",\"entries\":{\"pod1\":"
		    "{\"container1\":\"5-6\"}},\"podEntries\":{\"pod2\":{\"cpuSet\":\"7-9\"}},"
		    "\"checksum\":766259872}") == 0 &&
		      st.cpu.sum == KUBELET_SUM_UNVERIFIED && st.cpu.used &&
		      strstr(st.cpu.why, "not verified"),
	      "a newer layout (podEntries): read, checksum not verified, said");
	kubelet_state_free(&st);
	CHECK(parse(&st, true,
		    "{\"policyName\":\"other\",\"defaultCPUSet\":\"1-9\",\"checksum\":1234,"
		    "\"data\":\"{}\",\"dataChecksum\":657950972}") == 0 &&
		      st.cpu.sum == KUBELET_SUM_UNVERIFIED && !st.cpu.used,
	      "an unknown version (a data section): not read, said");
	CHECK(parse(&st, true, "{\"entries\":{\"a\":\"1\",\"b\":{}},\"checksum\":1}") == -EBADMSG &&
		      strstr(st.cpu.why, "neither v1"),
	      "entries of both versions: refused");
	kubelet_state_free(&st);
	CHECK(parse(&st, true,
		    "{\"entries\":{\"pod\":{\"a\":\"1-2\",\"b\":\"0-99999\"}},\"checksum\":0}") ==
			      -EBADMSG &&
		      !st.cpu.used && strstr(st.cpu.why, "not a CPU list"),
	      "a CPU list out of range: the file refused");
	a = kubelet_state_find(&st, "pod", "a", NULL);
	CHECK(!a || !a->has_cpus,
	      "and nothing of it kept, not even the entries before the bad one");
	CHECK(parse(&st, true, "{\"policyName\":") == -EBADMSG && strstr(st.cpu.why, "not JSON"),
	      "cut JSON: refused");
	CHECK(parse(&st, true, "[1]") == -EBADMSG, "not an object: refused");
	kubelet_state_free(&st);
}

static void test_mem(void)
{
	struct kubelet_state st = { 0 };
	const struct kubelet_assign *a;
	static const char good[] =
		"{\"policyName\":\"static\",\"machineState\":{\"0\":{\"numberOfAssignments\":0,"
		"\"memoryMap\":{\"memory\":{\"total\":2048,\"systemReserved\":512,\"allocatable\":"
		"1536,\"reserved\":512,\"free\":1024}},\"cells\":[]}},\"entries\":{\"pod\":"
		"{\"container1\":[{\"numaAffinity\":[0],\"type\":\"memory\",\"size\":512}]}},"
		"\"checksum\": 4215593881}";

	CHECK(parse(&st, false, good) == 0 && st.mem.sum == KUBELET_SUM_OK && st.mem.used,
	      "the Memory Manager's checkpoint: the kubelet's checksum verified");
	a = kubelet_state_find(&st, "pod", "container1", NULL);
	CHECK(a && a->has_mem && !a->has_cpus && a->n_mem_nodes == 1 && a->mem_nodes[0] == 0,
	      "a container's NUMA nodes");
	kubelet_state_free(&st);
	CHECK(parse(&st, false, "{\"policyName\":\"None\",\"machineState\":{},\"checksum\":1}") ==
			      0 &&
		      st.mem.sum == KUBELET_SUM_BAD,
	      "a bad checksum");
	CHECK(parse(&st, false,
		    "{\"policyName\":\"Static\",\"machineState\":{\"x\":{}},\"checksum\":1}") ==
			      -EBADMSG &&
		      strstr(st.mem.why, "node number"),
	      "a machine state keyed by something else than node numbers: refused");
	kubelet_state_free(&st);
	/* UBSan: the empty list of nodes was handed to qsort() as NULL. */
	CHECK(parse(&st, false,
		    "{\"policyName\":\"Static\",\"machineState\":{},\"entries\":{\"pod\":"
		    "{\"c\":[{\"numaAffinity\":[],\"type\":\"memory\",\"size\":1}]}},"
		    "\"checksum\":0}") == 0 &&
		      (a = kubelet_state_find(&st, "pod", "c", NULL)) && a->n_mem_nodes == 0,
	      "numaAffinity: [] is a container without nodes");
	kubelet_state_free(&st);
}

static void test_json(void)
{
	struct json_node n;
	char why[256];
	const char bytes[] = "[\"a\\u00e9\\ud83d\\ude00\xff\"]";

	CHECK(json_tree_parse(bytes, strlen(bytes), &n, why, sizeof(why)) == 0 &&
		      n.v[0].len == 1 + 2 + 4 + 3 &&
		      memcmp(n.v[0].s, "a\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbd", 10) == 0,
	      "escapes, a surrogate pair, and a byte not UTF-8 as U+FFFD (Go's decoding)");
	json_tree_free(&n);
	CHECK(json_tree_parse("{\"a\":1,\"A\":2}", 13, &n, why, sizeof(why)) == 0 &&
		      strcmp(json_tree_get(&n, "a")->s, "2") == 0,
	      "the last member matching without case wins, as in Go");
	json_tree_free(&n);
	CHECK(json_tree_parse(
		      "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", 71,
		      &n, why, sizeof(why)) == -EBADMSG,
	      "nesting is bounded");
	CHECK(json_tree_parse("[\"a\x01\"]", 6, &n, why, sizeof(why)) == -EBADMSG,
	      "a raw control character in a string: refused");
	/* ASan's leak check: the member's name was lost when its ':' was missing. */
	CHECK(json_tree_parse("{\"a\":1,\"name\" 2}", 16, &n, why, sizeof(why)) == -EBADMSG &&
		      strstr(why, "':'"),
	      "a member without ':': refused, its name freed");
}

/*
 * Runtime metadata on the live system (no --sysroot): a FIFO was opened
 * with a plain open(2), which blocks until a writer comes.
 */
static void test_read_alloc(void)
{
	char dir[] = "/tmp/test-containers.XXXXXX", fifo[64], big[64], *buf, text[1025];
	int fd;

	if (!mkdtemp(dir) || sysfs_init(NULL) < 0) {
		CHECK(false, "a temporary directory");
		return;
	}
	snprintf(fifo, sizeof(fifo), "%s/config.v2.json", dir);
	snprintf(big, sizeof(big), "%s/containers.json", dir);
	CHECK(mkfifo(fifo, 0600) == 0 && sysfs_read_alloc(fifo, 1024, &buf) == -ENXIO && !buf,
	      "a FIFO is refused, not opened for a read that would block");
	memset(text, 'x', sizeof(text));
	memcpy(text, "[1025", 5);
	fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, text, sizeof(text)) == (ssize_t)sizeof(text),
	      "a file of 1025 bytes");
	if (fd >= 0)
		close(fd);
	CHECK(sysfs_read_alloc(big, 1024, &buf) == -EFBIG && !buf, "past the limit: -EFBIG");
	CHECK(sysfs_read_alloc(big, 1025, &buf) == 1025 && buf && memcmp(buf, "[1025", 5) == 0,
	      "at the limit: read whole");
	free(buf);
	unlink(fifo);
	unlink(big);
	rmdir(dir);
}

#define ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void test_names(void)
{
	struct container_cg c;
	struct container_log_name ln;
	char ns[64], pod[254], uid[40];

	container_find_cg_name("x", "cri-containerd-" ID ".scope", &c);
	CHECK(c.is_container && strcmp(c.runtime, "containerd") == 0 && strcmp(c.id, ID) == 0,
	      "containerd's scope");
	container_find_cg_name("x", "crio-" ID ".scope", &c);
	CHECK(c.is_container && strcmp(c.runtime, "cri-o") == 0, "CRI-O's scope");
	container_find_cg_name("x", "crio-conmon-" ID ".scope", &c);
	CHECK(!c.is_container, "CRI-O's monitor is not the container");
	container_find_cg_name("x", "docker-" ID ".scope", &c);
	CHECK(c.is_container && strcmp(c.runtime, "docker") == 0, "docker's scope");
	container_find_cg_name("x", "libpod-" ID ".scope", &c);
	CHECK(c.is_container && strcmp(c.runtime, "podman") == 0, "podman's scope");
	container_find_cg_name("docker", ID, &c);
	CHECK(c.is_container && strcmp(c.runtime, "docker") == 0, "docker's cgroupfs layout");
	container_find_cg_name("pod1", ID "0", &c);
	CHECK(!c.is_container, "65 hex digits are no id");
	container_find_cg_name("kubepods.slice",
			       "kubepods-burstable-pod1a2b3c4d_0000_1111_2222_333344445555.slice",
			       &c);
	CHECK(c.is_pod && strcmp(c.qos, "burstable") == 0 &&
		      strcmp(c.pod_uid, "1a2b3c4d-0000-1111-2222-333344445555") == 0,
	      "systemd driver: the QoS, and the UID's '_' turned back into '-'");
	container_find_cg_name("kubepods.slice",
			       "kubepods-pod1a2b3c4d_0000_1111_2222_333344445555.slice", &c);
	CHECK(c.is_pod && strcmp(c.qos, "guaranteed") == 0,
	      "systemd driver: a guaranteed pod sits directly under kubepods");
	container_find_cg_name("kubepods", "pod1a2b3c4d-0000-1111-2222-333344445555", &c);
	CHECK(c.is_pod && strcmp(c.qos, "guaranteed") == 0, "cgroupfs driver: guaranteed");
	container_find_cg_name("besteffort", "pod1a2b3c4d-0000-1111-2222-333344445555", &c);
	CHECK(c.is_pod && strcmp(c.qos, "besteffort") == 0, "cgroupfs driver: best effort");

	CHECK(container_find_log_name("web-0_default_nginx-" ID ".log", &ln) &&
		      strcmp(ln.pod, "web-0") == 0 && strcmp(ln.ns, "default") == 0 &&
		      strcmp(ln.name, "nginx") == 0 && strcmp(ln.id, ID) == 0,
	      "a /var/log/containers name split");
	CHECK(container_find_log_name("a.b-c.0_kube-system_x-y-9-" ID ".log", &ln) &&
		      strcmp(ln.pod, "a.b-c.0") == 0 && strcmp(ln.name, "x-y-9") == 0,
	      "every character Kubernetes allows: dots in pods, dashes everywhere");
	CHECK(!container_find_log_name("Web_default_nginx-" ID ".log", &ln) &&
		      !container_find_log_name("we\x01b_default_nginx-" ID ".log", &ln) &&
		      !container_find_log_name("web\xff_default_nginx-" ID ".log", &ln) &&
		      !container_find_log_name("web_default_nginx-" ID ".txt", &ln) &&
		      !container_find_log_name("web_default_ng_inx-" ID ".log", &ln) &&
		      !container_find_log_name("web__nginx-" ID ".log", &ln),
	      "capitals, control characters, bytes not UTF-8, '_' in a name, empty parts: not "
	      "the kubelet's names");
	CHECK(container_find_pod_dir("default_web-0_1a2b3c4d-0000-1111-2222-333344445555", ns, pod,
				     sizeof(pod), uid, sizeof(uid)) &&
		      strcmp(ns, "default") == 0 && strcmp(pod, "web-0") == 0,
	      "a /var/log/pods directory split");
}

int main(void)
{
	test_fnv();
	test_cpu();
	test_mem();
	test_json();
	test_names();
	test_read_alloc();
	return tap_done();
}
