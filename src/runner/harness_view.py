"""A command's own view of the file system (exec runs with "view": eval's javac and java).

Where the worker has a mount namespace of its own (sandbox modes namespaces and userns), the run's
child makes another one before it drops its uid and builds a root that holds only what the
command needs: its installation (argv[0] is INSTALL/bin/NAME; e.g. the JDK), the directories under
/etc that the installation's files link to (Debian's JDK keeps its configuration in
/etc/java-17-openjdk), the dynamic loader and the system's shared-library directory, the C.UTF-8
locale, the loader's cache, a few device nodes, /proc, and the run directory, all read-only but
the run directory; /tmp is a link to the run directory (unless the run directory is under /tmp). No other interpreter, no shell, no /etc
beyond those, no /home or benchmark files: a program that lists / sees those few names. The
plain mode has no mount namespace: there a command sees the worker's file system, as before.
"""

import ctypes
import os
import platform
import struct

CLONE_NEWNS = 0x00020000
MS_NOSUID, MS_NODEV, MS_REC, MS_BIND, MS_PRIVATE = 2, 4, 16384, 4096, 1 << 18
MNT_DETACH = 2
MOUNT_ATTR_RDONLY = 1
AT_FDCWD, AT_RECURSIVE = -100, 0x8000
# machine -> (pivot_root, mount_setattr), the dynamic loader, the shared-library directory
MACHINES = {
    "x86_64": ((155, 442), "/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu"),
    "aarch64": ((41, 442), "/lib/ld-linux-aarch64.so.1", "/lib/aarch64-linux-gnu"),
}
ALWAYS = ("/usr/lib/locale/C.utf8", "/etc/ld.so.cache", "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom",
          "/proc")
MAX_SCAN = 4000  # entries of the installation scanned for links into /etc


def view_paths(command):
    """The paths the command's view holds (besides its run directory), existing ones only."""
    machine = platform.machine()
    if machine not in MACHINES:
        raise OSError("exec: no file-system view for this machine (%s)" % machine)
    _nrs, loader, libdir = MACHINES[machine]
    home = os.path.dirname(os.path.dirname(os.path.realpath(command)))
    candidates = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(home, "conf")):
        candidates += [os.path.join(dirpath, n) for n in dirnames + filenames]
        if len(candidates) > MAX_SCAN:
            break
    try:
        candidates += [os.path.join(home, "lib", n) for n in os.listdir(os.path.join(home, "lib"))[:MAX_SCAN]]
    except OSError:
        pass
    etc = set()
    for path in candidates:
        target = os.path.realpath(path) if os.path.islink(path) else ""
        if target.startswith("/etc/") and target.count("/") >= 3:
            etc.add("/etc/" + target.split("/")[2])
    paths = [home] + sorted(etc) + [loader, libdir] + list(ALWAYS)
    return [p for p in paths if os.path.exists(p)]


def enter_view(libc, command, run_dir, mount_point):
    """Move this process into a mount namespace whose root is the command's view (view_paths),
    built on a tmpfs mounted on mount_point (a directory of the worker's own, e.g. its private
    /dev/shm: hidden by the new root). Raises OSError when any step fails."""
    (nr_pivot, nr_setattr), _loader, _libdir = MACHINES.get(platform.machine(), ((0, 0), "", ""))
    paths = view_paths(command)

    def check(ret, what):
        if ret != 0:
            err = ctypes.get_errno()
            raise OSError(err, "exec view: %s: %s" % (what, os.strerror(err)))

    def setattr_(path, flags, attr_set, attr_clr):
        attr = ctypes.create_string_buffer(struct.pack("<QQQQ", attr_set, attr_clr, 0, 0))
        check(libc.syscall(ctypes.c_long(nr_setattr), ctypes.c_int(AT_FDCWD), ctypes.c_char_p(os.fsencode(path)),
                           ctypes.c_uint(flags), attr, ctypes.c_size_t(32)), "mount_setattr " + path)

    root = mount_point.rstrip("/")
    check(libc.unshare(CLONE_NEWNS), "unshare")
    check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "private /")
    check(libc.mount(b"tmpfs", os.fsencode(root), b"tmpfs", MS_NOSUID | MS_NODEV, b"size=1m,mode=0755"), "tmpfs")
    for path in paths + [run_dir]:
        dst = root + path
        if os.path.isdir(path):
            os.makedirs(dst, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "a"):
                pass
        check(libc.mount(os.fsencode(path), os.fsencode(dst), None, MS_BIND | MS_REC, None), "bind " + path)
    if not os.path.lexists(root + "/tmp"):  # (a run directory under /tmp makes it a directory)
        os.symlink(run_dir, root + "/tmp")
    os.chdir(root)
    check(libc.syscall(ctypes.c_long(nr_pivot), b".", b"."), "pivot_root")
    check(libc.umount2(b".", MNT_DETACH), "detach the old root")
    os.chdir("/")
    setattr_("/", AT_RECURSIVE, MOUNT_ATTR_RDONLY, 0)
    setattr_(run_dir, 0, 0, MOUNT_ATTR_RDONLY)
