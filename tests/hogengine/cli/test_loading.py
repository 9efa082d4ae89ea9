"""While a command's modules load: Ctrl-C waits for the loading to end (numpy's import, stopped midway, says
the install is broken: seen from `hog check` stopped while numpy loaded, "PyCapsule_Import could not import
module 'datetime'", exit status 1, instead of exiting 130 as every other Ctrl-C does); the garbage collector
waits too, and in the `hog` program what loaded stays out of its way until the program ends."""

import gc
import signal
import subprocess
import sys
import threading

import pytest

from hogengine.cli import loading, main


def test_ctrl_c_while_modules_load_lets_them_finish_then_interrupts() -> None:
    finished = []
    with pytest.raises(KeyboardInterrupt), loading.modules():
        signal.raise_signal(signal.SIGINT)
        finished.append(True)  # an import here would have been stopped midway
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C works as before after it


def test_loading_without_ctrl_c_changes_nothing() -> None:
    with loading.modules():
        pass
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)


def test_outside_the_main_thread_ctrl_c_is_not_held() -> None:
    """Only the main thread may set signal handlers; elsewhere the block runs as it is."""
    errors: list[BaseException] = []

    def block() -> None:
        try:
            with loading.modules():
                pass
        except BaseException as error:  # the thread reports whatever it met
            errors.append(error)

    thread = threading.Thread(target=block)
    thread.start()
    thread.join()
    assert errors == []


def test_nothing_is_collected_while_modules_load_and_a_caller_keeps_its_collector() -> None:
    collections: list[str] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        collections.append(phase)

    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    gc.callbacks.append(seen)
    try:
        with loading.modules():
            made = [[n] for n in range(5 * gc.get_threshold()[0])]  # enough to start collections
            assert not gc.isenabled()
            during = list(collections)
        assert during == []
        assert gc.isenabled()
        assert gc.get_freeze_count() == frozen  # not the command's own process: nothing of the caller frozen
    finally:
        gc.callbacks.remove(seen)
    assert len(made) > 0


FROZEN_IN_OWN_PROCESS = """
import gc
from hogengine.cli import loading
loading.own_process()
with loading.modules():
    made = [[n] for n in range(10_000)]
print(gc.isenabled(), gc.get_freeze_count() >= len(made))
"""


def test_in_the_commands_own_process_what_loaded_is_frozen_out_of_later_collections() -> None:
    """The `hog` program runs one command and exits: what its modules made lives as long as it does, and
    later collections need not walk it."""
    child = subprocess.run(
        [sys.executable, "-c", FROZEN_IN_OWN_PROCESS], capture_output=True, text=True, check=True
    )
    assert child.stdout.split() == ["True", "True"]


def test_a_command_run_in_process_leaves_nothing_frozen(capsys: pytest.CaptureFixture[str]) -> None:
    """The tests run hundreds of commands in one process: garbage frozen by one would never be freed."""
    frozen = gc.get_freeze_count()
    assert main(["rules"]) == 0
    assert "swine-align" in capsys.readouterr().out
    assert gc.get_freeze_count() == frozen
    assert gc.isenabled()
