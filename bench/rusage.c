// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rusage RUNS CMD [ARG...]: run CMD RUNS times, one after the other, with
 * stdin and stdout on /dev/null, and print what the kernel accounted to
 * each run (wait4(2)): "CPU_US MINFLT MAJFLT MAXRSS_KB STATUS", the means of
 * the CPU time (user + system, microseconds) and of the page faults, the
 * largest peak resident set, and the exit status all runs had (-1 when
 * they differed or one was killed: advise exits 3 when it advises).  A benchmark
 * tool, not part of numastatctl (bench/run --peers compiles it).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	double cpu = 0, minflt = 0, majflt = 0;
	long maxrss = 0, runs;
	int code = -2;

	if (argc < 3 || (runs = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: rusage RUNS CMD [ARG...]\n");
		return 2;
	}
	for (long i = 0; i < runs; i++) {
		struct rusage ru;
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("rusage: fork");
			return 1;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_RDWR);

			if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0)
				_exit(127);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("rusage: wait4");
			return 1;
		}
		if (!WIFEXITED(status) || (code != -2 && code != WEXITSTATUS(status)))
			code = -1;
		else if (code == -2)
			code = WEXITSTATUS(status);
		cpu += (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
		minflt += (double)ru.ru_minflt;
		majflt += (double)ru.ru_majflt;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
	}
	printf("%.0f %.1f %.1f %ld %d\n", cpu / (double)runs, minflt / (double)runs,
	       majflt / (double)runs, maxrss, code);
	return 0;
}
