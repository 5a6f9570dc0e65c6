"""Child side of the engine: loads one student file and reports what its functions return.

Walls first (namespaces, limits, Landlock, seccomp), then a "hello", then one request at a time; everything
that runs after student code is a closure.  Why: docs/design.md#labkitrunchildpy
"""

import _json  # json's C half: importing json itself pulls in re and enum, 15 ms of a child's start
import builtins
import io
import sys
import time

# os's C half, whose calls os re-exports (os itself imports _collections_abc: 1 ms of a child's start)
if sys.platform == "win32":
    import nt as os
else:
    import posix as os


def main():
    """Bind, take namespaces of its own, take the channel, put up the walls and say what they are, then serve
    requests until stdin closes."""
    builtins.exit = builtins.quit = leaver(SystemExit)  # what `site` would add; the child runs without it (-S)
    bound = bind()
    settings = bound["scan"](sys.argv[1], 0)[0]
    # No import looks in the working folder, where a student's helper files lie (a ctypes.py there would
    # run below, before the walls), until the load asks for it.
    sys.path[:] = [p for p in sys.path if p not in ("", ".", os.getcwd())]
    wanted = settings.get("confine") or settings.get("pidns") or settings.get("folder")
    ctypes, libc = load_libc() if wanted else (None, None)
    spaces = own_namespaces(ctypes, libc, settings)  # where it makes a pid namespace, only its worker returns
    requests, resp_fd = take_channel()
    hello = put_up_walls(settings, ctypes, libc, spaces)
    serve, send = serving(bound, settings["limits"], resp_fd)
    send(hello)
    serve(requests)


# Before any student code: plain functions.


def bind():
    """What the reporting path uses, taken before any student code can patch it: a copy of builtins (what
    they are put back to after every step of student code) with json's C scanner and quoting, the system
    calls and the modules' table beside it."""

    class Context:  # what json's C scanner reads from a JSONDecoder
        strict, object_hook, object_pairs_hook = True, None, None
        parse_float, parse_int, parse_constant = float, int, float

    saved = dict(builtins.__dict__)
    bound = {name: saved[name] for name in BOUND_BUILTINS}
    return dict(
        bound,
        builtins=saved,
        names=builtins.__dict__,
        scan=_json.make_scanner(Context()),
        quote=_json.encode_basestring_ascii,
        write=os.write,
        perf=time.perf_counter,
        sys=sys,
        module_type=type(sys),
        workdir=os.getcwd(),
    )


BOUND_BUILTINS = (
    "type",
    "isinstance",
    "callable",
    "str",
    "int",
    "float",
    "list",
    "tuple",
    "dict",
    "len",
    "repr",
    "enumerate",
    "sorted",
    "memoryview",
    "compile",
    "exec",
    "BaseException",
    "TypeError",
    "OSError",
    "SyntaxError",
    "SystemExit",
    "ImportError",
)  # the builtins the closures below use


def take_channel():
    """The channel: requests on a private copy of stdin, replies on a private copy of stdout (not inherited
    by anything the student starts); the student's stdin reads the null device and its stdout and stderr
    both go to the output pipe.  Returns the requests' file and the replies' descriptor."""
    req_fd, resp_fd = os.dup(0), os.dup(1)
    null = os.open("nul" if sys.platform == "win32" else "/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return io.open(req_fd, "rb"), resp_fd


def put_up_walls(settings, ctypes, libc, spaces):
    """Every wall the child puts up itself after its namespaces (`own_namespaces`), in order; returns the hello
    that says which held."""
    if settings.get("userns") and not spaces["userns"]:
        settings["limits"].pop("processes", None)  # without a namespace of its own it would count the grader's
    applied = set_limits(settings["limits"], settings.get("skip_limits", ()))
    if settings.get("confine") or spaces["userns"]:
        drop_capabilities(ctypes, libc, spaces["userns"])
    landlock = confine(".", settings.get("landlock_cap"), ctypes, libc) if settings.get("confine") else 0
    # Signals: Landlock scopes them from ABI 6, and nothing outside a pid namespace (its own, or bubblewrap's:
    # `pidns_given`) can be named from inside it; elsewhere the filter itself keeps the kill family to this process.
    own_signals = landlock < 6 and not spaces["pidns"] and not settings.get("pidns_given")
    seccomp = (
        filter_syscalls(ctypes, libc, own_signals)
        if settings.get("confine") and not settings.get("no_seccomp")
        else False
    )
    return {
        "hello": 1,
        "landlock": landlock,
        "seccomp": seccomp,
        "userns": spaces["userns"],
        "pidns": spaces["pidns"],
        "folder": spaces["folder"],
        "signals": bool(seccomp and own_signals),
        "limits": applied,
        "uid": getattr(os, "getuid", lambda: -1)(),
    }


def set_limits(limits, skip):
    """Resource limits; returns the names of those the system accepted (macOS refuses RLIMIT_AS)."""
    try:
        import resource
    except ImportError:  # Windows: the parent's job object and clock bound the child
        return []
    wanted = [
        ("RLIMIT_AS", limits.get("memory_bytes")),
        ("RLIMIT_CPU", limits.get("cpu_seconds")),
        ("RLIMIT_FSIZE", limits.get("file_bytes")),
        ("RLIMIT_CORE", 0),
        ("RLIMIT_NPROC", limits.get("processes")),
    ]
    applied = []
    for name, soft in wanted:
        if soft is None or not hasattr(resource, name) or name in skip:
            continue
        try:
            resource.setrlimit(getattr(resource, name), (soft, soft))
            applied.append(name)
        except (ValueError, OSError):
            pass
    return applied


def load_libc():
    """ctypes and the C library, on Linux (the walls below are system calls Python has no name for)."""
    if not sys.platform.startswith("linux"):
        return None, None
    try:
        import ctypes

        return ctypes, ctypes.CDLL(None, use_errno=True)
    except (ImportError, OSError):
        return None, None


CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID = 0x00020000, 0x10000000, 0x20000000


def own_namespaces(ctypes, libc, settings):
    """Namespaces of its own, before any student code, where the parent asks and the kernel lets it (Linux):

    - a user namespace (a child that is not root: what lets it make the others), mapping its uid and gid to
      themselves: the kernel (5.14 and later) also counts RLIMIT_NPROC per user namespace, so the process
      limit then caps this child alone, not every process of the user who runs the grader;
    - a mount namespace with a tmpfs of its own over its folder (`settings["folder"]`: at most that many bytes
      and files, whatever is written there, by the kernel's count), the parent's helper files copied in;
    - a pid namespace (`settings["pidns"]`, outside bubblewrap, which has one): nothing started inside can name,
      signal or outlive anything outside, and the kernel ends everything in it when its first process ends.

    Returns {"userns", "pidns", "folder"}: what was made.  With a pid namespace this process becomes a waiter
    outside it (`wait_for_worker`) and never returns: its second child, the worker, does."""
    made = {"userns": False, "pidns": False, "folder": False}
    if libc is None:
        return made
    wants_user = os.geteuid() != 0 and (settings.get("userns") or settings.get("pidns") or settings.get("folder"))
    uid, gid = os.getuid(), os.getgid()  # as the machine knows them (unmapped, the new namespace says 65534)
    if wants_user and libc.unshare(ctypes.c_int(CLONE_NEWUSER)) == 0:
        made["userns"] = True
        for name, line in (("uid_map", f"{uid} {uid} 1"), ("setgroups", "deny"), ("gid_map", f"{gid} {gid} 1")):
            try:
                fd = os.open("/proc/self/" + name, os.O_WRONLY)
                try:
                    os.write(fd, line.encode("ascii"))
                finally:
                    os.close(fd)
            except OSError:
                pass  # unmapped, it still counts its processes apart
    if os.geteuid() == 0 or made["userns"]:  # the capabilities to make the others, in its own user namespace
        if settings.get("folder") and libc.unshare(ctypes.c_int(CLONE_NEWNS)) == 0:
            made["folder"] = own_folder(ctypes, libc, settings["folder"], made["userns"])
        if settings.get("pidns") and libc.unshare(ctypes.c_int(CLONE_NEWPID)) == 0:
            made["pidns"] = True
            wait_for_worker(ctypes, libc, settings.get("parent"))
    return made


def own_folder(ctypes, libc, bound, userns):
    """Its folder becomes a tmpfs of its own (in its own mount namespace) holding at most `bound["bytes"]` bytes
    and `bound["files"]` files and folders; the files the parent put there (helper modules) are copied in.
    Everything goes by the working folder itself, never by a path through the folders above it, which its uid
    may not be allowed to search (a grader's TMPDIR in a private folder): the tmpfs is made as a mount of its
    own (fsopen, fsmount), entered by descriptor, and put over the folder's path where that path can be
    followed, so that TMPDIR and HOME lead into it too.  Returns whether it is the working folder now."""
    if not userns and libc.mount(None, b"/", None, ctypes.c_ulong(0x4000 | 0x40000), None) != 0:
        return False  # root's new mount namespace would share its mounts with the machine's (MS_REC | MS_PRIVATE)
    given = {}
    for name in os.listdir("."):
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            if os.fstat(fd).st_mode & 0o170000 == 0o100000:  # S_ISREG
                given[name] = os.read(fd, 1 << 24)
        finally:
            os.close(fd)
    syscall, string, number = libc.syscall, ctypes.c_char_p, ctypes.c_int
    syscall.restype = ctypes.c_long
    made = syscall(number(430), string(b"tmpfs"), number(1))  # fsopen(…, FSOPEN_CLOEXEC): Linux 5.2
    if made < 0:
        return False
    try:
        for key, value in (("size", bound["bytes"]), ("nr_inodes", bound["files"]), ("mode", "0700")):
            if (
                syscall(
                    number(431), number(made), number(1), string(key.encode()), string(str(value).encode()), number(0)
                )
                != 0
            ):  # fsconfig(FSCONFIG_SET_STRING)
                return False
        if syscall(number(431), number(made), number(6), None, None, number(0)) != 0:  # FSCONFIG_CMD_CREATE
            return False
        mounted = syscall(number(432), number(made), number(1), number(2 | 4))  # fsmount: NOSUID | NODEV
    finally:
        os.close(made)
    if mounted < 0:
        return False
    try:
        syscall(
            number(429), number(mounted), string(b""), number(-100), string(os.getcwd().encode()), number(4)
        )  # move_mount(…, AT_FDCWD, MOVE_MOUNT_F_EMPTY_PATH); if the path cannot be followed,
        os.fchdir(mounted)  # neither can the student's code follow it
    finally:
        os.close(mounted)
    for name, data in given.items():
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
    return True


def wait_for_worker(ctypes, libc, parent=None):
    """In a new pid namespace: its first process (pid 1) starts the worker, which returns to run the student's
    file, then reaps whatever ends in the namespace until the worker does, passes on how the worker ended, and
    ends (the kernel then kills everything left in the namespace).  This process stays outside: it waits, and
    ends as the worker did, so the parent sees the worker's exit; everything in the namespace descends from its
    first process, which dies with this one (PR_SET_PDEATHSIG) or with the process group the parent kills."""
    import _signal

    # It ends with the process that started it (SIGKILL, as bubblewrap's --die-with-parent), so a grader's worker
    # killed outright (SIGHUP's default, the OOM killer) takes the namespace with it; set here, after the uid
    # change that clears it; a parent already gone by now is seen by its pid.
    libc.prctl(ctypes.c_int(1), ctypes.c_ulong(9), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
    if parent is not None and os.getppid() != parent:
        os._exit(1)
    told, tell = os.pipe()
    init = os.fork()
    if init == 0:
        os.close(told)
        libc.prctl(ctypes.c_int(1), ctypes.c_ulong(9), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
        worker = os.fork()
        if worker == 0:
            os.close(tell)
            return
        deaf(_signal)
        for fd in (0, 1, 2):
            os.close(fd)  # the pipes stay the worker's alone
        while True:
            try:
                ended, status = os.waitpid(-1, 0)
            except InterruptedError:
                continue
            if ended == worker:
                break
        os.write(tell, str(status).encode("ascii"))
        os._exit(0)
    os.close(tell)
    deaf(_signal)
    for fd in (0, 1, 2):
        os.close(fd)  # the parent sees the end of the pipes once the worker and all it started are gone
    said = os.read(told, 32)
    status = os.waitpid(init, 0)[1]  # returns once the kernel has ended everything in the namespace
    if said.isdigit():
        status = int(said)
    if os.WIFSIGNALED(status):
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        number = os.WTERMSIG(status)
        try:
            _signal.signal(number, _signal.SIG_DFL)
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def deaf(_signal):
    """Ignore every signal that can be ignored but SIGCHLD (the waiter and init share the worker's process group:
    a kill(0, …) the student's code sends its own group must not end them)."""
    for number in range(1, _signal.NSIG):
        if number not in (_signal.SIGKILL, _signal.SIGSTOP, _signal.SIGCHLD):
            try:
                _signal.signal(number, _signal.SIG_IGN)
            except (OSError, ValueError):
                pass


def drop_capabilities(ctypes, libc, userns):
    """No capability left, now or after an exec: a child of a root grader that has no uid of its own
    would otherwise keep root's (load kernel modules, reboot, reconfigure the machine), and one in a
    user namespace of its own would keep those it has there."""
    if libc is None or (os.geteuid() != 0 and not userns):
        return
    ulong = ctypes.c_ulong
    for capability in range(64):
        if libc.prctl(ctypes.c_int(24), ulong(capability), ulong(0), ulong(0), ulong(0)) != 0:  # CAPBSET_DROP
            if ctypes.get_errno() == 22:  # EINVAL: past the last capability this kernel knows
                break
    libc.prctl(ctypes.c_int(47), ulong(4), ulong(0), ulong(0), ulong(0))  # PR_CAP_AMBIENT_CLEAR_ALL
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    libc.capset(header, (ctypes.c_uint32 * 6)())  # effective, permitted, inheritable: all empty


def filter_syscalls(ctypes, libc, own_signals=False):
    """A seccomp filter: no socket of any kind (TCP, UDP, and Unix sockets, by path or abstract: the
    D-Bus session bus, ssh and gpg agents, X11), no io_uring (its requests would pass by this filter),
    no IPC the kernel keeps beyond a process (System V, POSIX message queues), no keyrings, no ptrace,
    no new namespace (a user namespace would give back, inside it, the capabilities dropped above), no file
    in memory outside every folder (memfd_create, memfd_secret: its own folder is where its files go, bounded),
    no change to any file's mode, owner, times or extended attributes (chmod, chown, utime, setxattr: what
    Landlock leaves to a child that keeps the grader's uid, or is root without capabilities).
    Each is refused with EPERM; so is every call of another architecture's ABI; clone3, whose flags a
    filter cannot read, says ENOSYS (the C library then uses clone).

    With `own_signals` (where neither Landlock nor a pid namespace keeps its signals in), the kill family
    reaches this process alone: kill() to its own pid or its own process group (0), tkill, tgkill,
    rt_sigqueueinfo and rt_tgsigqueueinfo to its own pid (what raise(), os.abort, signal.raise_signal and
    signal.pthread_kill use); pidfd_send_signal (whose target a filter cannot read) and fcntl's F_SETOWN and
    F_SETOWN_EX (SIGIO to a process of its choosing) are refused.  Its own forks inherit the filter with this
    pid, so they can signal it and the group, not one another by pid.  Returns whether it is installed (this
    architecture's numbers must be known)."""
    if libc is None:
        return False
    # socket, socketpair; mq_open … mq_getsetattr; msgget, msgctl, msgrcv, msgsnd; semget, semctl,
    # semtimedop, semop; shmget, shmctl, shmat, shmdt; add_key, request_key, keyctl; ptrace,
    # process_vm_readv, process_vm_writev; unshare, setns; memfd_create (a file in memory, in no folder, that
    # RLIMIT_AS does not count) — then clone and clone3 — then kill, tkill, tgkill,
    # rt_sigqueueinfo, rt_tgsigqueueinfo and fcntl — then (chmod,) fchmod, fchmodat, (chown,) fchown, (lchown,)
    # fchownat, (utime, utimes, futimesat,) utimensat, setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr,
    # fremovexattr — in each architecture's numbering, after its audit arch
    generic = (
        (
            198,
            199,
            180,
            181,
            182,
            183,
            184,
            185,
            186,
            187,
            188,
            189,
            190,
            191,
            192,
            193,
            194,
            195,
            196,
            197,
            217,
            218,
            219,
            117,
            270,
            271,
            97,
            268,
            279,
        ),
        220,
        435,
        (129, 130, 131, 138, 240, 25),
        (52, 53, 54, 55, 88, 5, 6, 7, 14, 15, 16),
    )  # asm-generic (arm64, riscv64)
    known = {
        "x86_64": (
            0xC000003E,
            (
                (
                    41,
                    53,
                    240,
                    241,
                    242,
                    243,
                    244,
                    245,
                    68,
                    71,
                    70,
                    69,
                    64,
                    66,
                    220,
                    65,
                    29,
                    31,
                    30,
                    67,
                    248,
                    249,
                    250,
                    101,
                    310,
                    311,
                    272,
                    308,
                    319,
                ),
                56,
                435,
                (62, 200, 234, 129, 297, 72),
                (90, 91, 268, 92, 93, 94, 260, 132, 235, 261, 280, 188, 189, 190, 197, 198, 199),
            ),
        ),
        "aarch64": (0xC00000B7, generic),
        "arm64": (0xC00000B7, generic),
        "riscv64": (0xC00000F3, generic),
    }
    arch, (numbers, clone, clone3, signalling, metadata) = known.get(
        os.uname().machine, (None, ((), None, None, (), ()))
    )
    if arch is None:
        return False
    numbers += (425, 426, 427, 438, 447)  # io_uring_setup, _enter, _register, pidfd_getfd, memfd_secret: all
    # What Landlock does not cover, where the child keeps the grader's uid (or is root without capabilities): a
    # file's metadata outside its folder: chmod (a setuid bit on root's file), chown, utime, extended attributes
    # (a POSIX ACL that lets others read): fchmodat2, setxattrat and removexattrat in every numbering, then each
    # architecture's own.
    numbers += (452, 463, 466) + metadata
    if own_signals:
        numbers += (424,)  # pidfd_send_signal: all

    class Instruction(ctypes.Structure):
        _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Instruction))]

    # The program, with jumps to labels: another architecture's ABI is refused; then (x86-64) the x32
    # ABI, whose numbers have bit 30 set; each number above; clone with a namespace flag in its first
    # argument (the low half of args[0]: all three are little-endian; a pid, a tid and fcntl's command are
    # ints, read by the kernel from that half too); clone3; the signalling calls; the rest is allowed.
    load, equal, at_least, any_bit, give = 0x20, 0x15, 0x35, 0x45, 0x06  # BPF_LD|W|ABS, JMP|JEQ|JGE|JSET|K, RET
    allow, deny, no_such = 0x7FFF0000, 0x00050001, 0x00050026  # SECCOMP_RET_ALLOW, RET_ERRNO|EPERM, |ENOSYS
    namespaces = 0x7E020000  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
    code = [(load, None, None, 4), (equal, "nr", None, arch), (give, None, None, deny), ("nr", load, None, None, 0)]
    if arch == 0xC000003E:
        code.append((at_least, "deny", None, 0x40000000))
    code += [(equal, "deny", None, number) for number in numbers]
    code += [(equal, "clone3", None, clone3), (equal, "clone", None, clone)]
    if own_signals:
        kill, *to_own_pid, fcntl = signalling
        me = os.getpid()
        code += [(equal, "kill", None, kill)] + [(equal, "own", None, number) for number in to_own_pid]
        code += [
            (equal, "fcntl", None, fcntl),
            (give, None, None, allow),
            ("kill", load, None, None, 16),
            (equal, "allow", None, 0),
            (equal, "allow", "deny", me),
            ("own", load, None, None, 16),
            (equal, "allow", "deny", me),
            ("fcntl", load, None, None, 24),
            (equal, "deny", None, 8),
            (equal, "deny", None, 15),
        ]  # F_SETOWN(_EX)
    code += [
        ("allow", give, None, None, allow),
        ("clone", load, None, None, 16),
        (any_bit, "deny", None, namespaces),
        (give, None, None, allow),
        ("clone3", give, None, None, no_such),
        ("deny", give, None, None, deny),
    ]
    labels = {item[0]: index for index, item in enumerate(code) if type(item[0]) is str}
    code = [item[1:] if type(item[0]) is str else item for item in code]
    resolved = [
        Instruction(op, labels[yes] - index - 1 if yes else 0, labels[no] - index - 1 if no else 0, k)
        for index, (op, yes, no, k) in enumerate(code)
    ]
    program = Program(len(resolved), (Instruction * len(resolved))(*resolved))
    ulong = ctypes.c_ulong
    libc.prctl(ctypes.c_int(38), ulong(1), ulong(0), ulong(0), ulong(0))  # PR_SET_NO_NEW_PRIVS
    return libc.prctl(ctypes.c_int(22), ulong(2), ctypes.byref(program), ulong(0), ulong(0)) == 0  # FILTER


def confine(workdir, cap, ctypes, libc):
    """Linux Landlock: read the Python installation and system files, write only in `workdir`, no
    TCP, no signals or abstract sockets outside the sandbox (what the ABI has).  Returns the ABI
    applied, or 0.  `cap` lowers the ABI used (tests simulate older kernels with it)."""
    if libc is None or cap == 0:
        return 0
    syscall, u64 = libc.syscall, ctypes.c_uint64
    syscall.restype = ctypes.c_long
    abi = syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))  # LANDLOCK_CREATE_RULESET_VERSION
    if abi < 1:
        return 0
    if cap is not None:
        abi = min(abi, cap)
    file_rights = 1 | 2 | 4 | (1 << 14 if abi >= 3 else 0) | (1 << 15 if abi >= 5 else 0)
    handled = (1 << 13) - 1 | (1 << 13 if abi >= 2 else 0) | file_rights
    read = 1 | 4 | 8  # execute, read file, read dir

    class RulesetAttr(ctypes.Structure):
        _fields_ = [("fs", u64), ("net", u64), ("scoped", u64)]

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed", u64), ("parent_fd", ctypes.c_int32)]

    attr = RulesetAttr(handled, 3 if abi >= 4 else 0, 3 if abi >= 6 else 0)
    ruleset = syscall(444, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), ctypes.c_uint32(0))
    if ruleset < 0:
        return 0
    readable = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        "/usr",
        "/lib",
        "/lib32",
        "/lib64",
        "/bin",
        "/etc/ld.so.cache",
        "/etc/localtime",
        "/dev/null",
        "/dev/zero",
        "/dev/urandom",
    }  # not /etc
    for path, rights in [(p, read) for p in sorted(readable)] + [("/dev/null", 2 | 4), (workdir, handled)]:
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue
        allowed = rights if os.fstat(fd).st_mode & 0o170000 == 0o040000 else rights & file_rights  # S_ISDIR
        rule = PathBeneath(allowed & handled, fd)
        syscall(445, ruleset, ctypes.c_int(1), ctypes.byref(rule), ctypes.c_uint32(0))
        os.close(fd)
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS, required to restrict oneself
    applied = syscall(446, ruleset, ctypes.c_uint32(0)) == 0
    os.close(ruleset)
    return abi if applied else 0


def provide_module(name, names):
    """The lab's given module, built from plain data (the load request's): `name` in `sys.modules` holding
    `names`, and each dotted prefix of it a package (an empty `__path__`) with the next part as an
    attribute, so that `import a.b`, `from a.b import X` and `a.b.X` all work.  Called by the load before
    the student's file runs (a child loads once)."""
    parts, parent = name.split("."), None
    for end in range(1, len(parts) + 1):
        module = type(sys)(".".join(parts[:end]))
        if end < len(parts):
            module.__path__ = []
        if parent is not None:
            setattr(parent, parts[end - 1], module)
        sys.modules[module.__name__] = parent = module
    parent.__dict__.update(names)


def serving(bound, limits, resp_fd):
    """The request loop and everything it calls, made now as closures; returns the loop and `send`."""
    state = {"module": None, "source_lines": [], "filename": None}  # the student's module, once loaded
    restore, safe_text = restorer(**bound), safe_texter(**bound)
    to_json = json_writer(limits.get("depth", 16), **bound)
    send, mark, describe = sender(to_json, resp_fd, **bound), marker(**bound), describer(state, safe_text, **bound)
    longest = limits.get("value_chars", 1 << 20)  # a str is cut to it; data or arguments beyond it described
    encode = encoder(to_json, safe_text, longest, **bound)
    call = caller(state, encode, to_json, safe_text, describe, restore, longest, **bound)
    handlers = {
        "load": loader(state, describe, restore, provide_module, **bound),
        "call": call,
        "calls": batcher(call, send, mark, restore, **bound),
    }
    return server(handlers, send, mark, describe, restore, **bound), send


# After student code may have run: closures, each made by its factory before any student code.  A factory
# takes what it uses of `bind()` as keyword parameters named as the builtins they are (it is called with
# `**bound`), so its closures read them from their own cells under their usual names.  The locals
# `request`, `index` and main's `resp_fd` keep the names that the hostile fixtures reading frames look
# for (forges_replies_with_nonce.py, bloats_with_forged_replies.py).


def leaver(system_exit):
    """`exit()` and `quit()` for the student's code: they raise SystemExit, as `site`'s would."""

    def leave(code=None):
        raise system_exit(code)

    return leave


def restorer(*, names, builtins, **_):
    """`restore()`: builtins put back as `bind` copied them, after every step of student code."""

    def restore():
        names.clear()
        names.update(builtins)

    return restore


def safe_texter(*, str, isinstance, BaseException, **_):
    """`safe_text(obj, limit)`: an exact str of anything, cut to `limit`; "<?>" where making it raises."""

    def safe_text(obj, limit=500):
        try:
            return str.__str__(obj if isinstance(obj, str) else str(obj))[:limit]
        except BaseException:
            return "<?>"

    return safe_text


def json_writer(max_depth, *, quote, type, str, int, float, list, tuple, dict, TypeError, **_):
    """`to_json(value)`: JSON for the exact built-in types only, at most `max_depth` deep; anything else
    raises TypeError."""

    def fail():
        raise TypeError("not plain data")

    def to_json(value, depth=0):
        kind = type(value)
        if kind is str:
            return quote(value)
        if value is None or value is True or value is False:
            return {None: "null", True: "true", False: "false"}[value]
        if kind is int:
            return int.__repr__(value)
        if kind is float:
            return float.__repr__(value) if value - value == 0 else "null"
        if depth >= max_depth:
            return fail()
        if kind is list or kind is tuple:
            return "[" + ",".join([to_json(item, depth + 1) for item in value]) + "]"
        if kind is dict:
            return (
                "{"
                + ",".join(
                    [
                        quote(key) + ":" + to_json(item, depth + 1)
                        for key, item in value.items()
                        if type(key) is str or fail()
                    ]
                )
                + "}"
            )
        return fail()

    return to_json


def sender(to_json, resp_fd, *, write, memoryview, **_):
    """`send(reply)`: one reply as a line of JSON on the replies' descriptor, written whole."""

    def send(reply):
        data = memoryview((to_json(reply) + "\n").encode("ascii"))
        while data:
            data = data[write(resp_fd, data) :]

    return send


def marker(*, write, OSError, **_):
    """`mark(key)`: the marker after a reply on the output pipe, where that call's printed output ends."""

    def mark(key):
        try:
            write(2, ("\n\x00labkit-end " + key + "\x00\n").encode("ascii"))
        except OSError:
            pass  # the student closed the output pipe; the parent stops waiting for markers

    return mark


def describer(state, safe_text, *, type, isinstance, int, len, SyntaxError, SystemExit, ImportError, **_):
    """`describe(exc)`: type, message and the student's own line for an exception."""

    def describe(exc):
        where, tb = None, exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == state["filename"]:
                where = tb.tb_lineno
            tb = tb.tb_next
        info = {
            "type": safe_text(type(exc).__name__, 100),
            "message": safe_text(exc),
            "kinds": [safe_text(cls.__name__, 100) for cls in type(exc).__mro__[:20]],
        }
        if isinstance(exc, SyntaxError):
            info.update(
                line=exc.lineno if type(exc.lineno) is int else None,
                offset=exc.offset if type(exc.offset) is int else None,
                code=safe_text(exc.text or ""),
                message=safe_text(exc.msg),
            )
            return info
        if isinstance(exc, SystemExit):
            info["exit_code"] = safe_text(exc.code, 100)
        if isinstance(exc, ImportError):
            info["module"] = safe_text(exc.name or "", 100)
        if where is not None:
            lines = state["source_lines"]
            info["line"] = where
            info["code"] = lines[where - 1].strip()[:300] if 0 < where <= len(lines) else ""
        return info

    return describe


def encoder(
    to_json,
    safe_text,
    longest,
    *,
    type,
    isinstance,
    str,
    int,
    float,
    len,
    list,
    dict,
    enumerate,
    repr,
    BaseException,
    **_,
):
    """`encode(value, args)`: a returned value as data: a genuine str is sent whole (cut to `longest`), plain
    lists and dicts (of exact built-in types, not too deep, within `longest`) and exact ints, finite floats,
    bools and None as data, anything else by its type and repr."""

    def plain(value):
        kind = type(value)
        return (
            kind is list
            or kind is dict
            or kind is int
            or value is None
            or value is True
            or value is False
            or kind is float
            and value - value == 0
        )  # not inf or nan: JSON has no number for them

    def encode(value, args):
        if type(value) is str:
            if len(value) > longest:
                return {"kind": "str", "value": value[:longest], "length": len(value)}
            return {"kind": "str", "value": value}
        if plain(value):
            try:
                fits = len(to_json(value)) <= longest
            except BaseException:  # too deep, or an int too long to write (3.11+)
                fits = False
            if fits:
                data = {"kind": "data", "type": type(value).__name__, "value": value}
                if type(value) is list or type(value) is dict:
                    data["is_argument"] = [index for index, arg in enumerate(args) if arg is value]
                return data
        try:
            cls = type(value)
            name = cls.__name__ if cls.__module__ == "builtins" else cls.__module__ + "." + cls.__qualname__
        except BaseException:
            name = "?"
        str_subclass = isinstance(value, str)
        try:
            shown = str.__repr__(value) if str_subclass else repr(value)
        except BaseException:
            shown = "<?>"
        return {
            "kind": "other",
            "type": safe_text(name, 100),
            "str_subclass": str_subclass,
            "repr": safe_text(shown, 300),
        }

    return encode


def loader(
    state,
    describe,
    restore,
    provide,
    *,
    sys,
    workdir,
    module_type,
    compile,
    exec,
    type,
    str,
    len,
    callable,
    list,
    sorted,
    BaseException,
    **_,
):
    """`load(request)`: the lab's given module built (`provide`), then the student's file run as the module
    the request names; says which of the request's functions it defines, and its public callables."""

    def public_names(module):
        """The module's public callables, at most 200 of them (a file can define millions of names)."""
        names = []
        for name, value in list(module.__dict__.items()):
            if len(names) >= 200:
                break
            if type(name) is str and len(name) <= 100 and not name.startswith("_") and callable(value):
                names.append(name)
        return sorted(names)

    def load(request):
        state["filename"] = request["filename"]
        state["source_lines"] = request["source"].splitlines()
        sys.argv = [request["module"] + ".py"]
        if request.get("modules"):  # the student's helper modules sit in this, the child's own directory
            sys.path.insert(0, workdir)
        provide(request["given"]["module"], request["given"]["names"])
        module = module_type(request["module"])
        module.__file__ = request["filename"]
        sys.modules[request["module"]] = module
        try:
            code = compile(request["source"], request["filename"], "exec", dont_inherit=True)
            exec(code, module.__dict__)
        except BaseException as exc:
            restore()
            return {"ok": False, "raised": describe(exc)}
        restore()
        state["module"] = module
        functions = {}
        for name in request["functions"]:
            found = module.__dict__.get(name)
            functions[name] = "missing" if found is None else "ok" if callable(found) else "not_callable"
        return {"ok": True, "functions": functions, "defined": public_names(module)}

    return load


def caller(state, encode, to_json, safe_text, describe, restore, longest, *, perf, len, repr, BaseException, **_):
    """`call(request)`: one call of a student function: what it returned or raised, its time, and its
    arguments as the call left them (described, not sent, beyond `longest`)."""

    def call(request):
        function = state["module"].__dict__[request["function"]]
        args = request["args"]
        started = perf()
        try:
            value = function(*args)
        except BaseException as exc:
            restore()
            reply = {"raised": describe(exc)}
        else:
            restore()
            reply = {"returned": encode(value, args)}
            del value
        reply["seconds"] = perf() - started
        try:
            too_large = len(to_json(args)) > longest
            reply["args_after"] = {"too_large": "<more than %d characters>" % longest} if too_large else args
        except BaseException:
            reply["args_after"] = {"unserializable": safe_text(repr(args), 300)}
        return reply

    return call


def batcher(call, send, mark, restore, *, enumerate, len, **_):
    """`calls(request)`: several calls of one function in one request, each result sent as soon as it is
    known (with the request's nonce and its index, and its own output marker), as if asked for alone."""

    def calls(request):
        for index, args in enumerate(request["args_list"]):
            result = call({"function": request["function"], "args": args})
            restore()
            send({"result": result, "index": index, "nonce": request["nonce"]})
            mark(f"{request['nonce']}.{index}")
        return {"done": len(request["args_list"])}

    return calls


def server(handlers, send, mark, describe, restore, *, scan, BaseException, **_):
    """`serve(requests)`: each request to its handler, its reply sent with the request's nonce and followed
    by its output marker; what the student's code broke in the child is said, not guessed."""

    def serve(requests):
        for line in requests:
            request = scan(line.decode("ascii"), 0)[0]
            handler = handlers.get(request.get("op"))
            if handler is None:
                break
            try:
                reply = handler(request)
            except BaseException as exc:  # the student broke the child itself; say so, do not guess
                restore()
                reply = {"internal": describe(exc)}
            restore()  # a __repr__ or __str__ of the student's may have run while reporting
            reply["nonce"] = request["nonce"]
            try:
                send(reply)
            except BaseException as exc:  # e.g. a value too deep to write: say so instead of dying
                restore()
                send({"internal": describe(exc), "nonce": request["nonce"]})
            mark(request["nonce"])

    return serve


if __name__ == "__main__":
    main()
