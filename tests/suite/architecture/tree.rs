//! The crate's source as the architecture rules see it: every file parsed with syn, placed in
//! the module tree, and every reference it makes resolved — use trees (wrapped and nested
//! groups, `self`, `super::super`, renames), paths in expressions, types and patterns, and the
//! paths written inside macro and attribute tokens — to a module of the crate or an external
//! crate (the standard library included, for the I/O rules). Unit-test items
//! (`#[cfg(test)]`) are left out: tests may reach anywhere.

use proc_macro2::{Spacing, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// One source file as the rules read it: its path (`src/load/mod.rs`) and its text.
pub struct Source {
    pub file: String,
    pub text: String,
}

/// Where a reference is written.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct At {
    pub file: String,
    pub line: usize,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// What a path names once resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Inside the crate: module segments, then the item's names (`load`, `markdown`, `parse`).
    Crate(Vec<String>),
    /// An external crate (`std` and `core` included) and the path inside it.
    External { krate: String, path: Vec<String> },
}

/// How a reference is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// In a `use` declaration; `public` unless it is private to its module.
    Use { public: bool },
    /// A path in code, or a path inside macro or attribute tokens.
    Path,
}

pub struct Reference {
    /// The module it is written in (`["load", "markdown"]`; the crate root is empty).
    pub module: Vec<String>,
    pub at: At,
    pub target: Target,
    pub written: Written,
}

/// A macro invocation or a method call, for the rules about printing and writing files.
pub struct Invocation {
    pub at: At,
    pub name: String,
    /// For a method call: whether an argument is the literal `true` (`.write(true)`).
    pub given_true: bool,
    pub macro_call: bool,
}

/// The parsed source: the modules it declares, what each file refers to, and what it invokes.
pub struct Tree {
    pub modules: BTreeSet<Vec<String>>,
    pub references: Vec<Reference>,
    pub invocations: Vec<Invocation>,
    /// Files that could not be parsed, with syn's reason.
    pub unparsed: Vec<String>,
}

/// A name a module imports, before resolution: the path its `use` writes.
struct Import {
    path: Vec<String>,
}

/// The module of a file: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`; `lib.rs` is the root of
/// the library, `main.rs` (the binary) the module `main`.
pub fn module_of(file: &str) -> Vec<String> {
    let rel = file.strip_prefix("src/").unwrap_or(file);
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod")) {
        parts.pop();
    }
    if parts == ["lib"] {
        parts.clear();
    }
    parts
}

/// Parse `sources` and resolve every reference against the module tree they make and the
/// external crates `crates` names (dependency names with `-` written `_`).
pub fn parse(sources: &[Source], crates: &BTreeSet<String>) -> Tree {
    let mut unparsed = Vec::new();
    let mut parsed = Vec::new();
    for s in sources {
        match syn::parse_file(&s.text) {
            Ok(f) => parsed.push((s, f)),
            Err(e) => unparsed.push(format!("{}: cannot be parsed: {e}", s.file)),
        }
    }
    let mut modules = BTreeSet::new();
    let mut imports: BTreeMap<Vec<String>, BTreeMap<String, Import>> = BTreeMap::new();
    for (s, f) in &parsed {
        let mut d = Declarations {
            module: module_of(&s.file),
            modules: &mut modules,
            imports: &mut imports,
        };
        d.modules.insert(d.module.clone());
        d.visit_file(f);
    }
    let resolver = Resolver {
        modules: &modules,
        imports: &imports,
        crates,
    };
    let mut references = Vec::new();
    let mut invocations = Vec::new();
    for (s, f) in &parsed {
        let mut c = Collector {
            file: &s.file,
            module: module_of(&s.file),
            resolver: &resolver,
            references: &mut references,
            invocations: &mut invocations,
        };
        c.visit_file(f);
    }
    Tree {
        modules,
        references,
        invocations,
        unparsed,
    }
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string() == "test")
    })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item::*;
    match item {
        Const(i) => &i.attrs,
        Enum(i) => &i.attrs,
        ExternCrate(i) => &i.attrs,
        Fn(i) => &i.attrs,
        ForeignMod(i) => &i.attrs,
        Impl(i) => &i.attrs,
        Macro(i) => &i.attrs,
        Mod(i) => &i.attrs,
        Static(i) => &i.attrs,
        Struct(i) => &i.attrs,
        Trait(i) => &i.attrs,
        TraitAlias(i) => &i.attrs,
        Type(i) => &i.attrs,
        Union(i) => &i.attrs,
        Use(i) => &i.attrs,
        _ => &[],
    }
}

/// Every entry of a use tree: the path written (`self` folded into its prefix) and the name it
/// binds (`None` for a glob).
fn use_entries(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>, usize)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_entries(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let line = n.ident.span().start().line;
            if n.ident == "self" {
                out.push((prefix.clone(), prefix.last().cloned(), line));
            } else {
                let mut p = prefix.clone();
                p.push(n.ident.to_string());
                out.push((p, Some(n.ident.to_string()), line));
            }
        }
        syn::UseTree::Rename(r) => {
            let line = r.ident.span().start().line;
            let mut p = prefix.clone();
            if r.ident != "self" {
                p.push(r.ident.to_string());
            }
            out.push((p, Some(r.rename.to_string()), line));
        }
        syn::UseTree::Glob(g) => {
            out.push((prefix.clone(), None, g.star_token.span().start().line));
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_entries(t, prefix, out);
            }
        }
    }
}

fn entries_of(u: &syn::ItemUse) -> Vec<(Vec<String>, Option<String>, usize)> {
    let mut out = Vec::new();
    use_entries(&u.tree, &mut Vec::new(), &mut out);
    out
}

fn is_public(v: &syn::Visibility) -> bool {
    !matches!(v, syn::Visibility::Inherited)
}

/// Pass one: which modules exist and what each imports.
struct Declarations<'a> {
    module: Vec<String>,
    modules: &'a mut BTreeSet<Vec<String>>,
    imports: &'a mut BTreeMap<Vec<String>, BTreeMap<String, Import>>,
}

impl<'ast> Visit<'ast> for Declarations<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_test_only(item_attrs(item)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.module.push(m.ident.to_string());
        self.modules.insert(self.module.clone());
        visit::visit_item_mod(self, m);
        self.module.pop();
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let map = self.imports.entry(self.module.clone()).or_default();
        for (path, name, _) in entries_of(u) {
            if let Some(name) = name {
                map.insert(name, Import { path });
            }
        }
    }
}

/// Resolution of a written path in a module, the way the compiler finds it: `crate`, `self`,
/// `super`, a child module, a name the module imports, an external crate.
pub struct Resolver<'a> {
    modules: &'a BTreeSet<Vec<String>>,
    imports: &'a BTreeMap<Vec<String>, BTreeMap<String, Import>>,
    crates: &'a BTreeSet<String>,
}

const STD: [&str; 3] = ["std", "core", "alloc"];

impl Resolver<'_> {
    pub fn resolve(&self, module: &[String], path: &[String]) -> Option<Target> {
        self.resolve_within(module, path, 0)
    }

    fn resolve_within(&self, module: &[String], path: &[String], depth: usize) -> Option<Target> {
        if depth > 8 {
            return None;
        }
        let (first, rest) = path.split_first()?;
        let absolute: Vec<String> = match first.as_str() {
            "crate" => rest.to_vec(),
            "self" => module.iter().chain(rest).cloned().collect(),
            "super" => {
                let mut base = module.to_vec();
                base.pop();
                let mut rest = rest;
                while let Some(("super", more)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
                    base.pop();
                    rest = more;
                }
                base.into_iter().chain(rest.iter().cloned()).collect()
            }
            name => {
                let mut child = module.to_vec();
                child.push(name.to_string());
                if self.modules.contains(&child) {
                    child.extend(rest.iter().cloned());
                    child
                } else if let Some(i) = self.imports.get(module).and_then(|m| m.get(name)) {
                    let mut p = i.path.clone();
                    p.extend(rest.iter().cloned());
                    // An import is written relative to the module that declares it.
                    return self.resolve_within(module, &p, depth + 1);
                } else if STD.contains(&name) || self.crates.contains(name) {
                    return Some(Target::External {
                        krate: name.to_string(),
                        path: rest.to_vec(),
                    });
                } else {
                    return None;
                }
            }
        };
        Some(self.through_reexports(absolute, depth))
    }

    /// A path into a module that imports the named item is the imported item: `crate::dsl::parse`
    /// is `dsl::parser::parse` when `dsl` says `pub use parser::parse`.
    fn through_reexports(&self, path: Vec<String>, depth: usize) -> Target {
        let module_len = (0..=path.len())
            .rev()
            .find(|n| self.modules.contains(&path[..*n]))
            .unwrap_or(0);
        if let Some(name) = path.get(module_len) {
            let module = &path[..module_len];
            if let Some(i) = self.imports.get(module).and_then(|m| m.get(name)) {
                let mut p = i.path.clone();
                p.extend(path[module_len + 1..].iter().cloned());
                if let Some(t) = self.resolve_within(module, &p, depth + 1) {
                    return t;
                }
            }
        }
        Target::Crate(path)
    }
}

/// Pass two: every reference and invocation, resolved.
struct Collector<'a> {
    file: &'a str,
    module: Vec<String>,
    resolver: &'a Resolver<'a>,
    references: &'a mut Vec<Reference>,
    invocations: &'a mut Vec<Invocation>,
}

impl Collector<'_> {
    fn at(&self, line: usize) -> At {
        At {
            file: self.file.to_string(),
            line,
        }
    }

    fn reference(&mut self, path: &[String], line: usize, written: Written) {
        if let Some(target) = self.resolver.resolve(&self.module, path) {
            self.references.push(Reference {
                module: self.module.clone(),
                at: self.at(line),
                target,
                written,
            });
        }
    }

    /// Paths written as tokens (inside a macro call or an attribute): `a::b::c` sequences.
    fn tokens(&mut self, tokens: &TokenStream) {
        let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => {
                    self.tokens(&g.stream());
                    i += 1;
                }
                TokenTree::Ident(first) => {
                    let line = first.span().start().line;
                    let mut path = vec![first.to_string()];
                    let mut j = i + 1;
                    while let (
                        Some(TokenTree::Punct(a)),
                        Some(TokenTree::Punct(b)),
                        Some(TokenTree::Ident(next)),
                    ) = (trees.get(j), trees.get(j + 1), trees.get(j + 2))
                    {
                        if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
                        {
                            path.push(next.to_string());
                            j += 3;
                        } else {
                            break;
                        }
                    }
                    if path.len() > 1 {
                        self.reference(&path, line, Written::Path);
                    }
                    i = j;
                }
                _ => i += 1,
            }
        }
    }
}

fn segments(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_test_only(item_attrs(item)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Fn(f) => &f.attrs[..],
            syn::ImplItem::Const(c) => &c.attrs[..],
            _ => &[],
        };
        if !is_test_only(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.module.push(m.ident.to_string());
        visit::visit_item_mod(self, m);
        self.module.pop();
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let written = Written::Use {
            public: is_public(&u.vis),
        };
        for (path, _, line) in entries_of(u) {
            self.reference(&path, line, written);
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.segments.len() > 1 && p.leading_colon.is_none() {
            let line = p.segments[0].ident.span().start().line;
            self.reference(&segments(p), line, Written::Path);
        }
        visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let name = m
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        self.invocations.push(Invocation {
            at: self.at(m.path.span().start().line),
            name,
            given_true: false,
            macro_call: true,
        });
        self.tokens(&m.tokens);
        visit::visit_macro(self, m);
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        if let syn::Meta::List(l) = &a.meta {
            self.tokens(&l.tokens);
        }
        visit::visit_attribute(self, a);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let given_true = m.args.iter().any(
            |a| matches!(a, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. }) if b.value),
        );
        self.invocations.push(Invocation {
            at: self.at(m.method.span().start().line),
            name: m.method.to_string(),
            given_true,
            macro_call: false,
        });
        visit::visit_expr_method_call(self, m);
    }
}
