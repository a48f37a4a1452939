"""API keys: the OS keyring when one works, else an owner-only file; never in logs or reprs."""

from __future__ import annotations

import logging
import os
import stat
import sys

import pytest

from courtroom_desktop.core import secrets
from courtroom_desktop.core.errors import ConfigError
from testkit.keyrings import BrokenKeyring, installed

URL = "http://127.0.0.1:8000/v1"
KEY = "sk-test-0123456789abcdef"


@pytest.fixture
def no_keyring():
    from keyring.backends import fail

    with installed(fail.Keyring()):
        yield


def test_normalize_base_url_makes_one_name_per_server():
    assert secrets.normalize_base_url("HTTP://Host:8000/v1/") == secrets.normalize_base_url("http://host:8000/v1")
    with pytest.raises(ConfigError):
        secrets.normalize_base_url("")
    with pytest.raises(ConfigError):
        secrets.normalize_base_url("not a url")


def test_keys_go_to_the_keyring_when_one_works(memory_keyring, tmp_path):
    assert secrets.set_api_key(URL + "/", KEY, data_dir=tmp_path) == "keyring"
    assert memory_keyring.store == {(secrets.SERVICE, URL): KEY}
    assert secrets.get_api_key(URL, data_dir=tmp_path) == KEY
    assert not (tmp_path / secrets.FALLBACK_FILE).exists()
    assert secrets.delete_api_key(URL, data_dir=tmp_path) is True
    assert secrets.get_api_key(URL, data_dir=tmp_path) is None
    assert secrets.delete_api_key(URL, data_dir=tmp_path) is False


def test_without_a_keyring_keys_go_to_an_owner_only_file(no_keyring, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    secrets._warned = False
    where = secrets.set_api_key(URL, KEY, data_dir=tmp_path)
    path = tmp_path / secrets.FALLBACK_FILE
    assert where == str(path)
    if sys.platform != "win32":
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert secrets.get_api_key(URL, data_dir=tmp_path) == KEY
    assert any("no usable OS keyring" in r.getMessage() for r in caplog.records)
    assert KEY not in caplog.text
    secrets.set_api_key("http://other:1/v1", "sk-other-key-000000", data_dir=tmp_path)
    assert secrets.delete_api_key(URL, data_dir=tmp_path) is True
    assert secrets.get_api_key(URL, data_dir=tmp_path) is None
    assert secrets.get_api_key("http://other:1/v1", data_dir=tmp_path) == "sk-other-key-000000"


def test_a_broken_keyring_falls_back_to_the_file(tmp_path):
    with installed(BrokenKeyring()):
        assert secrets.set_api_key(URL, KEY, data_dir=tmp_path) == str(tmp_path / secrets.FALLBACK_FILE)
        assert secrets.get_api_key(URL, data_dir=tmp_path) == KEY


def test_the_default_data_dir_comes_from_the_environment(no_keyring, tmp_path, monkeypatch):
    monkeypatch.setenv("COURTROOM_DATA_DIR", str(tmp_path / "elsewhere"))
    secrets.set_api_key(URL, KEY)
    assert (tmp_path / "elsewhere" / secrets.FALLBACK_FILE).exists()


def test_a_key_never_shows_in_repr_and_empty_keys_are_refused(memory_keyring):
    secrets.set_api_key(URL, KEY)
    key = secrets.get_api_key(URL)
    assert key == KEY
    assert KEY not in repr(key) and KEY not in repr([key])
    assert secrets.mask(KEY) == "sk-...cdef"
    with pytest.raises(ConfigError):
        secrets.set_api_key(URL, "   ")


def test_key_storage_says_where_keys_go(memory_keyring, tmp_path):
    assert secrets.key_storage(data_dir=tmp_path).startswith("the operating system's keyring")
    from keyring.backends import fail

    with installed(fail.Keyring()):
        where = secrets.key_storage(data_dir=tmp_path)
    assert str(tmp_path / secrets.FALLBACK_FILE) in where and "0600" in where
