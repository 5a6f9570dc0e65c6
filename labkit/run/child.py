"""Child side of the engine: loads one student file and reports what its functions return.

The parent starts it as ``python -S -c <this source> <settings as JSON>`` in an empty temporary folder,
with three pipes: requests arrive on stdin, replies leave on stdout, and the student's printed output goes
to stderr (the child moves its own stdin/stdout out of the student's reach first: fd 0 becomes the null
device and fd 1 joins fd 2).  It imports nothing from the harness and never sees an expected value.

Before any student code runs it takes a user namespace of its own where the parent asks (so that the
kernel counts its processes apart from the grader's), sets its resource limits, drops every capability,
confines itself (Landlock, where the kernel has it, and a seccomp filter) and sends a "hello" saying what
it applied: that first line is the only one the parent trusts without a nonce, because no student code
has run yet.  Then it serves requests one at a time; every reply echoes
the nonce of its request, so a line the student's code writes is never taken for a reply, and after each
reply it writes a marker with that nonce to the output pipe, so the parent knows where a call's printed
output ends.  The parent validates every reply; nothing here is trusted once student code has run.
"""


def main():
    import _json  # json's C half: importing json itself pulls in re and enum, 15 ms of a child's start
    import builtins
    import os
    import sys
    import time

    def leave(code=None):
        raise SystemExit(code)

    builtins.exit = builtins.quit = leave  # what `site` would add; the child runs without it (-S)

    # Everything the reporting path needs is bound here, before any student code can patch it, and
    # builtins are put back after every step of student code.  Replies are written by `to_json`
    # below, which uses only these C functions, so patching json or builtins cannot change them.
    class Context:  # what json's C scanner reads from a JSONDecoder
        strict, object_hook, object_pairs_hook = True, None, None
        parse_float, parse_int, parse_constant = float, int, float

    scan_json = _json.make_scanner(Context())
    quote = _json.encode_basestring_ascii
    write, perf = os.write, time.perf_counter

    def walk_tb(tb):
        while tb is not None:
            yield tb.tb_frame, tb.tb_lineno
            tb = tb.tb_next

    exact_type, is_instance, text, base_exception = type, isinstance, str, BaseException
    int_text, float_text, join, length = int.__repr__, float.__repr__, ",".join, len
    syntax_error, system_exit, import_error = SyntaxError, SystemExit, ImportError
    list_type, tuple_type, dict_type, int_type, float_type = list, tuple, dict, int, float
    module_type = type(sys)
    saved_builtins = dict(builtins.__dict__)
    settings = scan_json(sys.argv[1], 0)[0]
    limits = settings["limits"]
    max_depth = limits.get("depth", 16)

    # The channel: requests on a private copy of stdin, replies on a private copy of stdout; the
    # student's stdin reads the null device and its stdout and stderr both go to the output pipe.
    req_fd, resp_fd = os.dup(0), os.dup(1)  # not inherited by anything the student starts
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    requests = os.fdopen(req_fd, "rb")
    sys.argv = ["student.py"]
    sys.path[:] = [p for p in sys.path if p not in ("", ".", os.getcwd())]
    state = {"module": None, "source_lines": [], "filename": "student.py"}

    def restore_builtins():
        names = builtins.__dict__
        names.clear()
        names.update(saved_builtins)

    def to_json(value, depth=0):
        """JSON for the exact built-in types only, at most `max_depth` deep; anything else raises TypeError."""
        kind = exact_type(value)
        if kind is text:
            return quote(value)
        if value is None or value is True or value is False:
            return {None: "null", True: "true", False: "false"}[value]
        if kind is int_type:
            return int_text(value)
        if kind is float_type:
            return float_text(value) if value - value == 0 else "null"
        if depth >= max_depth:
            return fail()
        if kind is list_type or kind is tuple_type:
            return "[" + join([to_json(item, depth + 1) for item in value]) + "]"
        if kind is dict_type:
            return "{" + join([quote(key) + ":" + to_json(item, depth + 1) for key, item in value.items()
                               if exact_type(key) is text or fail()]) + "}"
        return fail()

    def fail():
        raise TypeError("not plain data")

    def send(reply):
        data = memoryview((to_json(reply) + "\n").encode("ascii"))
        while data:
            data = data[write(resp_fd, data):]

    def mark_output_end(nonce):
        try:
            write(2, ("\n\x00lab09-end " + nonce + "\x00\n").encode("ascii"))
        except OSError:
            pass  # the student closed the output pipe; the parent stops waiting for markers

    def safe_text(obj, limit=500):
        try:
            return text.__str__(obj if is_instance(obj, text) else text(obj))[:limit]
        except base_exception:
            return "<?>"

    def describe(exc):
        """Type, message and the student's own line for an exception."""
        where = None
        for frame, lineno in walk_tb(exc.__traceback__):
            if frame.f_code.co_filename == state["filename"]:
                where = lineno
        info = {"type": safe_text(exact_type(exc).__name__, 100), "message": safe_text(exc),
                "kinds": [safe_text(cls.__name__, 100) for cls in exact_type(exc).__mro__[:20]]}
        if is_instance(exc, syntax_error):
            info.update(line=exc.lineno if exact_type(exc.lineno) is int_type else None,
                        offset=exc.offset if exact_type(exc.offset) is int_type else None,
                        code=safe_text(exc.text or ""), message=safe_text(exc.msg))
            return info
        if is_instance(exc, system_exit):
            info["exit_code"] = safe_text(exc.code, 100)
        if is_instance(exc, import_error):
            info["module"] = safe_text(exc.name or "", 100)
        if where is not None:
            lines = state["source_lines"]
            info["line"] = where
            info["code"] = lines[where - 1].strip()[:300] if 0 < where <= len(lines) else ""
        return info

    def encode(value, args):
        """A returned value as data: a genuine str is sent whole, plain lists and dicts (of exact
        built-in types only, not too deep) as data, anything else by its type and repr."""
        longest = limits.get("value_chars", 1 << 20)
        if exact_type(value) is text:
            if len(value) > longest:
                return {"kind": "str", "value": value[:longest], "length": len(value)}
            return {"kind": "str", "value": value}
        if exact_type(value) is list_type or exact_type(value) is dict_type:
            try:
                fits = length(to_json(value)) <= longest
            except base_exception:
                fits = False
            if fits:
                return {"kind": "data", "type": exact_type(value).__name__, "value": value,
                        "is_argument": [index for index, arg in enumerate(args) if arg is value]}
        try:
            cls = exact_type(value)
            name = cls.__name__ if cls.__module__ == "builtins" else cls.__module__ + "." + cls.__qualname__
        except base_exception:
            name = "?"
        str_subclass = is_instance(value, text)
        try:
            shown = text.__repr__(value) if str_subclass else repr(value)
        except base_exception:
            shown = "<?>"
        return {"kind": "other", "type": safe_text(name, 100), "str_subclass": str_subclass,
                "repr": safe_text(shown, 300)}

    def set_limits():
        """Resource limits; returns the names of those the system accepted (macOS refuses RLIMIT_AS)."""
        try:
            import resource
        except ImportError:  # Windows: the parent's job object and clock bound the child
            return []
        wanted = [("RLIMIT_AS", limits.get("memory_bytes")), ("RLIMIT_CPU", limits.get("cpu_seconds")),
                  ("RLIMIT_FSIZE", limits.get("file_bytes")), ("RLIMIT_CORE", 0),
                  ("RLIMIT_NPROC", limits.get("processes"))]
        applied = []
        for name, soft in wanted:
            if soft is None or not hasattr(resource, name) or name in settings.get("skip_limits", ()):
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

    def own_user_namespace(ctypes, libc):
        """A user namespace of its own, mapping its uid and gid to themselves: the kernel (5.14 and later)
        counts RLIMIT_NPROC per user namespace, so the process limit then caps this child alone, not every
        process of the user who runs the grader.  Returns whether it was made."""
        if libc is None:
            return False
        uid, gid = os.getuid(), os.getgid()
        if libc.unshare(ctypes.c_int(0x10000000)) != 0:  # CLONE_NEWUSER
            return False
        for name, line in (("uid_map", f"{uid} {uid} 1"), ("setgroups", "deny"), ("gid_map", f"{gid} {gid} 1")):
            try:
                fd = os.open("/proc/self/" + name, os.O_WRONLY)
                try:
                    os.write(fd, line.encode("ascii"))
                finally:
                    os.close(fd)
            except OSError:
                pass  # unmapped, it still counts its processes apart
        return True

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

    def filter_syscalls(ctypes, libc):
        """A seccomp filter: no socket of any kind (TCP, UDP, and Unix sockets, by path or abstract: the
        D-Bus session bus, ssh and gpg agents, X11), no io_uring (its requests would pass by this filter),
        no IPC the kernel keeps beyond a process (System V, POSIX message queues), no keyrings, no ptrace,
        no new namespace (a user namespace would give back, inside it, the capabilities dropped above).
        Each is refused with EPERM; so is every call of another architecture's ABI; clone3, whose flags a
        filter cannot read, says ENOSYS (the C library then uses clone).  Returns whether it is installed
        (this architecture's numbers must be known)."""
        if libc is None:
            return False
        # socket, socketpair; mq_open … mq_getsetattr; msgget, msgctl, msgrcv, msgsnd; semget, semctl,
        # semtimedop, semop; shmget, shmctl, shmat, shmdt; add_key, request_key, keyctl; ptrace,
        # process_vm_readv, process_vm_writev; unshare, setns — then clone and clone3 — in each
        # architecture's numbering, after its audit arch
        generic = ((198, 199, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195,
                    196, 197, 217, 218, 219, 117, 270, 271, 97, 268), 220, 435)  # asm-generic (arm64, riscv64)
        known = {"x86_64": (0xC000003E, ((41, 53, 240, 241, 242, 243, 244, 245, 68, 71, 70, 69, 64, 66, 220, 65,
                                          29, 31, 30, 67, 248, 249, 250, 101, 310, 311, 272, 308), 56, 435)),
                 "aarch64": (0xC00000B7, generic), "arm64": (0xC00000B7, generic),
                 "riscv64": (0xC00000F3, generic)}
        arch, (numbers, clone, clone3) = known.get(os.uname().machine, (None, ((), None, None)))
        if arch is None:
            return False
        numbers += (425, 426, 427, 438)  # io_uring_setup, io_uring_enter, io_uring_register, pidfd_getfd: all

        class Instruction(ctypes.Structure):
            _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                        ("k", ctypes.c_uint32)]

        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Instruction))]

        # The program, with jumps to labels: another architecture's ABI is refused; then (x86-64) the x32
        # ABI, whose numbers have bit 30 set; each number above; clone with a namespace flag in its first
        # argument (the low half of args[0]: all three are little-endian); clone3; the rest is allowed.
        load, equal, at_least, any_bit, give = 0x20, 0x15, 0x35, 0x45, 0x06  # BPF_LD|W|ABS, JMP|JEQ|JGE|JSET|K, RET
        allow, deny, no_such = 0x7FFF0000, 0x00050001, 0x00050026  # SECCOMP_RET_ALLOW, RET_ERRNO|EPERM, |ENOSYS
        namespaces = 0x7E020000  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
        code = [(load, None, None, 4), (equal, "nr", None, arch), (give, None, None, deny),
                ("nr", load, None, None, 0)]
        if arch == 0xC000003E:
            code.append((at_least, "deny", None, 0x40000000))
        code += [(equal, "deny", None, number) for number in numbers]
        code += [(equal, "clone3", None, clone3), (equal, "clone", None, clone), (give, None, None, allow),
                 ("clone", load, None, None, 16), (any_bit, "deny", None, namespaces), (give, None, None, allow),
                 ("clone3", give, None, None, no_such), ("deny", give, None, None, deny)]
        labels = {item[0]: index for index, item in enumerate(code) if type(item[0]) is str}
        code = [item[1:] if type(item[0]) is str else item for item in code]
        resolved = [Instruction(op, labels[yes] - index - 1 if yes else 0, labels[no] - index - 1 if no else 0, k)
                    for index, (op, yes, no, k) in enumerate(code)]
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
        readable = {sys.prefix, sys.base_prefix, sys.exec_prefix, "/usr", "/lib", "/lib32", "/lib64", "/bin",
                    "/etc/ld.so.cache", "/etc/localtime", "/dev/null", "/dev/zero", "/dev/urandom"}  # not /etc
        for path, rights in [(p, read) for p in sorted(readable)] + [("/dev/null", 2 | 4), (workdir, handled)]:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            allowed = rights if os.path.isdir(path) else rights & file_rights
            rule = PathBeneath(allowed & handled, fd)
            syscall(445, ruleset, ctypes.c_int(1), ctypes.byref(rule), ctypes.c_uint32(0))
            os.close(fd)
        libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS, required to restrict oneself
        applied = syscall(446, ruleset, ctypes.c_uint32(0)) == 0
        os.close(ruleset)
        return abi if applied else 0

    def provide_tags(tags):
        package = module_type("framework")
        package.__path__ = []
        module = module_type("framework.tags")
        module.__dict__.update(tags)
        package.tags = module
        sys.modules["framework"], sys.modules["framework.tags"] = package, module

    def public_names(module):
        """The module's public callables, at most 200 of them (a file can define millions of names)."""
        names = []
        for name, value in list(module.__dict__.items()):
            if len(names) >= 200:
                break
            if exact_type(name) is text and len(name) <= 100 and not name.startswith("_") and callable(value):
                names.append(name)
        return sorted(names)

    def load(request):
        state["filename"] = request["filename"]
        state["source_lines"] = request["source"].splitlines()
        if request.get("modules"):  # the student's helper modules sit in this, the child's own directory
            sys.path.insert(0, os.getcwd())
        provide_tags(request["tags"])
        module = module_type("student")
        module.__file__ = request["filename"]
        sys.modules["student"] = module
        try:
            code = compile(request["source"], request["filename"], "exec", dont_inherit=True)
            exec(code, module.__dict__)
        except base_exception as exc:
            restore_builtins()
            return {"ok": False, "raised": describe(exc)}
        restore_builtins()
        state["module"] = module
        functions = {}
        for name in request["functions"]:
            found = module.__dict__.get(name)
            functions[name] = "missing" if found is None else "ok" if callable(found) else "not_callable"
        return {"ok": True, "functions": functions, "defined": public_names(module)}

    def call(request):
        function = state["module"].__dict__[request["function"]]
        args = request["args"]
        started = perf()
        try:
            value = function(*args)
        except base_exception as exc:
            restore_builtins()
            reply = {"raised": describe(exc)}
        else:
            restore_builtins()
            reply = {"returned": encode(value, args)}
            del value
        reply["seconds"] = perf() - started
        try:
            longest = limits.get("value_chars", 1 << 20)  # as for a value: more is described, not sent
            too_large = length(to_json(args)) > longest
            reply["args_after"] = {"too_large": "<more than %d characters>" % longest} if too_large else args
        except base_exception:
            reply["args_after"] = {"unserializable": safe_text(repr(args), 300)}
        return reply

    ctypes, libc = load_libc() if settings.get("confine") else (None, None)
    userns = own_user_namespace(ctypes, libc) if settings.get("userns") else False
    if settings.get("userns") and not userns:
        limits.pop("processes", None)  # without a namespace of its own it would count the grader's processes
    applied_limits = set_limits()
    drop_capabilities(ctypes, libc, userns)
    landlock = confine(os.getcwd(), settings.get("landlock_cap"), ctypes, libc)
    seccomp = filter_syscalls(ctypes, libc) if not settings.get("no_seccomp") else False
    send({"hello": 1, "landlock": landlock, "seccomp": seccomp, "userns": userns, "limits": applied_limits,
          "uid": getattr(os, "getuid", lambda: -1)()})

    def calls(request):
        """Several calls of one function in one request, each result sent as soon as it is known (with the
        request's nonce and its index, and its own output marker), as if each had been asked for alone."""
        for index, args in enumerate(request["args_list"]):
            result = call({"function": request["function"], "args": args})
            restore_builtins()
            send({"result": result, "index": index, "nonce": request["nonce"]})
            mark_output_end(f"{request['nonce']}.{index}")
        return {"done": len(request["args_list"])}

    handlers = {"load": load, "call": call, "calls": calls}
    for line in requests:
        request = scan_json(line.decode("ascii"), 0)[0]
        handler = handlers.get(request.get("op"))
        if handler is None:
            break
        try:
            reply = handler(request)
        except base_exception as exc:  # the student broke the child itself; say so, do not guess
            restore_builtins()
            reply = {"internal": describe(exc)}
        restore_builtins()  # a __repr__ or __str__ of the student's may have run while reporting
        reply["nonce"] = request["nonce"]
        try:
            send(reply)
        except base_exception as exc:  # e.g. a value too deep to write: say so instead of dying
            restore_builtins()
            send({"internal": describe(exc), "nonce": request["nonce"]})
        mark_output_end(request["nonce"])


if __name__ == "__main__":
    main()
