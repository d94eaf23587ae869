//! A real editor: headless Neovim attaches `auditbook lsp` to a Markdown check file, a link to
//! a retired id is typed into the buffer (never saved), and the diagnostics Neovim received
//! are read back through `vim.diagnostic.get`.

use crate::common;

use common::Fixture;
use serde_json::Value;
use std::process::Command;

/// The editor's configuration: attach the server to every Markdown buffer, then run the
/// scenario once the buffer is attached and dump what Neovim holds as JSON.
const INIT_LUA: &str = r#"
local bin, dump = os.getenv('AUDITBOOK_BIN'), os.getenv('AUDITBOOK_DUMP')
local client_id
vim.api.nvim_create_autocmd('BufEnter', {
  pattern = '*.md',
  callback = function(args)
    client_id = client_id or vim.lsp.start_client({
      name = 'auditbook',
      cmd = { bin, 'lsp' },
      root_dir = vim.fn.getcwd(),
    })
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})
local function finish(result)
  vim.fn.writefile({ vim.fn.json_encode(result) }, dump)
  vim.cmd('qa!')
end
vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local attached = vim.wait(60000, function()
      local c = client_id and vim.lsp.get_client_by_id(client_id)
      return c ~= nil and c.initialized == true
    end, 50)
    if not attached then
      return finish({ error = 'the language server never initialised' })
    end
    -- The clean twin first: what the file holds on disk.
    vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
    local before = vim.diagnostic.get(0)
    vim.api.nvim_buf_set_lines(0, -1, -1, false, { '', 'Siehe auch [DRIFT-007](DRIFT-007.md).' })
    local found = vim.wait(60000, function()
      for _, d in ipairs(vim.diagnostic.get(0)) do
        if d.message:find('DRIFT%-007', 1) and d.severity == vim.diagnostic.severity.ERROR then
          return true
        end
      end
      return false
    end, 50)
    local after = {}
    for _, d in ipairs(vim.diagnostic.get(0)) do
      table.insert(after, { lnum = d.lnum, col = d.col, severity = d.severity,
        message = d.message, source = d.source })
    end
    local prior = {}
    for _, d in ipairs(before) do
      table.insert(prior, { lnum = d.lnum, severity = d.severity, message = d.message })
    end
    finish({ found = found, before = prior, after = after,
      modified = vim.bo.modified, lines = vim.api.nvim_buf_line_count(0) })
  end,
})
"#;

#[test]
fn neovim_shows_the_finding_for_a_typed_link_to_a_retired_id() {
    let nvim = common::prereq::nvim();
    let f = Fixture::shipped();
    // The clean twin: a plain history mention of the retired id, which is a note and never an
    // error. Written here rather than relied on in the shipped prose, which may drop it.
    let check = f.root().join("checks/DRIFT-008.md");
    let mut text = std::fs::read_to_string(&check).unwrap();
    text.push_str("\nDRIFT-007 was merged into FID-006 on 2026-08-07.\n");
    std::fs::write(&check, text).unwrap();
    let init = f.dir.path().join("init.lua");
    let dump = f.dir.path().join("diagnostics.json");
    std::fs::write(&init, INIT_LUA).unwrap();
    let out = Command::new(&nvim)
        .args(["--headless", "--clean", "-n", "-u"])
        .arg(&init)
        .arg("checks/DRIFT-008.md")
        .current_dir(f.root())
        .env("AUDITBOOK_BIN", assert_cmd::cargo::cargo_bin("auditbook"))
        .env("AUDITBOOK_DUMP", &dump)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&dump).unwrap_or_else(|e| {
        panic!(
            "Neovim wrote no diagnostics ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["found"], true, "{v:#}");
    // Before the edit: the history mention of DRIFT-007 is a note (severity 3: info), no error.
    let before = v["before"].as_array().unwrap();
    assert!(!before.is_empty(), "{v:#}");
    assert!(before.iter().all(|d| d["severity"] != 1), "{v:#}");
    // After: the typed link, on the last line, is an error naming the successor.
    let last = v["lines"].as_u64().unwrap() - 1;
    let link = v["after"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["severity"] == 1)
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(link["lnum"], last);
    assert_eq!(link["col"], 12);
    assert_eq!(link["source"], "auditbook");
    assert!(
        link["message"].as_str().unwrap().contains("FID-006"),
        "{v:#}"
    );
    // The buffer was never saved: the server read the edit from the editor.
    assert_eq!(v["modified"], true);
    assert!(!f.read("checks/DRIFT-008.md").contains("[DRIFT-007]"));
}
