"""Ctrl-C while modules load waits for the loading to end: numpy's import, stopped midway, says the install
is broken (seen from `hog check` stopped while numpy loaded: "PyCapsule_Import could not import module
'datetime'", exit status 1) instead of exiting 130 as every other Ctrl-C does."""

import signal
import threading

import pytest

from hogengine.cli import interrupts


def test_ctrl_c_in_a_held_block_lets_it_finish_then_interrupts() -> None:
    finished = []
    with pytest.raises(KeyboardInterrupt), interrupts.held():
        signal.raise_signal(signal.SIGINT)
        finished.append(True)  # an import here would have been stopped midway
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C works as before after it


def test_a_held_block_without_ctrl_c_changes_nothing() -> None:
    with interrupts.held():
        pass
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)


def test_outside_the_main_thread_nothing_is_held() -> None:
    """Only the main thread may set signal handlers; elsewhere the block runs as it is."""
    errors: list[BaseException] = []

    def block() -> None:
        try:
            with interrupts.held():
                pass
        except BaseException as error:  # the thread reports whatever it met
            errors.append(error)

    thread = threading.Thread(target=block)
    thread.start()
    thread.join()
    assert errors == []
