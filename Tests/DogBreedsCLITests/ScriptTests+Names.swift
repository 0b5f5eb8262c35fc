import Foundation
import TestHTTPServer
import TestSupport
import Testing

extension ScriptTests {
  @Test func showAcceptsListedAndAPINames() async throws {
    let server = try TestHTTPServer { [breedsJSON] request in
      request.path.contains("images/random") ? .json(Self.imageJSON(for: request.path)) : .json(breedsJSON)
    }
    defer { server.stop() }
    for name in ["Hound", "hound", "HOUND"] {
      let run = try await runCLI(["show", name] + api(server))
      #expect(run.status == 0, "\(name): \(run.stderr)")
      #expect(
        run.stdout
          == "Hound\nPicture: https://images.dog.ceo/breeds/hound/n1.jpg\nSub-breeds:\n  Afghan\n  Basset\n")
    }
    // A sub-breed has none of its own: the list is its breed's, and says so.
    let shown = try await runCLI(["show", "hound/afghan"] + api(server))
    #expect(
      shown.stdout
        == "Afghan Hound\nPicture: https://images.dog.ceo/breeds/hound-afghan/n1.jpg\nSub-breeds of Hound:\n  Afghan\n  Basset\n",
      "\(shown.stderr)")
    let sub = try await runCLI(["show", "hound/afghan", "--json"] + api(server))
    #expect(sub.status == 0)
    #expect(sub.stdout.contains(#""subBreed":"afghan""#))
    #expect(sub.stdout.contains(#""displayName":"Afghan Hound""#))
    // A sub-breed as the list and the Breed screen name it, either way round, and a pasted
    // name's spaces.
    for name in ["Afghan Hound", " afghan  hound", " Hound/Afghan\t", "Hound Afghan"] {
      let run = try await runCLI(["show", name, "--json"] + api(server))
      #expect(run.status == 0, "\(name): \(run.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      #expect(object?["name"] as? String == "hound" && object?["subBreed"] as? String == "afghan", "\(name)")
    }
    // Where the breed's name leads the title (a nationality, a coat), either order finds it.
    for name in ["German Shepherd", "shepherd german", "Rough Collie"] {
      let run = try await runCLI(["show", name, "--json", "--api", "fake"])
      #expect(run.status == 0, "\(name): \(run.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      #expect(
        ["German Shepherd", "Rough Collie"].contains(object?["displayName"] as? String ?? ""), "\(name)")
      #expect(["german", "rough"].contains(object?["name"] as? String ?? ""), "\(name)")
    }
    #expect(try await runCLI(["show", "hound afghan/x"] + api(server)).status == 2)
    // Three words: not a title, but their letters run together are near one.
    let threeWords = try await runCLI(["show", "Afghan Hound Dog"] + api(server))
    #expect(
      threeWords.status == 3
        && threeWords.stderr
          == "error: “afghan hound dog” is not in the breed list. Did you mean hound/afghan?\n",
      "\(threeWords.stderr)")
    #expect(server.requests.map(\.path).contains("/api/breed/hound/afghan/images/random"))
    let pug = try await runCLI(["show", "pug"] + api(server))
    #expect(pug.stdout == "Pug\nPicture: https://images.dog.ceo/breeds/pug/n1.jpg\n")
    // Where two titles are each other the other way round, the one named in order wins.
    let mirrored = try TestHTTPServer { request in
      request.path.contains("images/random")
        ? .json(Self.imageJSON(for: request.path))
        : .json(#"{"message":{"dane":["great"],"great":["dane"]},"status":"success"}"#)
    }
    defer { mirrored.stop() }
    for (name, shown) in [("Great Dane", "Great Dane"), ("dane great", "Dane Great")] {
      let run = try await runCLI(["show", name] + api(mirrored))
      #expect(run.stdout.hasPrefix("\(shown)\n"), "\(name): \(run.stdout) \(run.stderr)")
    }
  }

  @Test func notFoundAndBadNamesHaveTheirOwnExitCodes() async throws {
    let server = try TestHTTPServer { [breedsJSON] request in
      request.path.contains("images/random")
        ? .json(
          #"{"status":"error","message":"Breed not found (main breed does not exist)","code":404}"#,
          status: 404)
        : .json(breedsJSON)
    }
    defer { server.stop() }
    let unknown = try await runCLI(["show", "unicorn"] + api(server))
    #expect(unknown.status == 3)
    #expect(unknown.stderr == "error: “unicorn” is not in the breed list.\n")
    // Near misses come with what to try.
    let partial = try await runCLI(["show", "Hou"] + api(server))
    #expect(partial.status == 3)
    #expect(partial.stderr == "error: “hou” is not in the breed list. Did you mean hound?\n")
    let many = try await runCLI(["show", "u"] + api(server))
    #expect(many.stderr == "error: “u” is not in the breed list. Did you mean hound or pug?\n")
    // On the whole list: three suggestions at most, and every breed a sub-breed is in.
    let ound = try await runCLI(["show", "ound", "--api", "fake"])
    #expect(
      ound.stderr
        == "error: “ound” is not in the breed list. Did you mean coonhound, deerhound or elkhound?\n")
    let english = try await runCLI(["show", "english", "--api", "fake"])
    #expect(
      english.stderr
        == "error: “english” is not in the breed list. It is a sub-breed: try bulldog/english, hound/english, "
        + "mastiff/english, setter/english, sheepdog/english or springer/english.\n")
    let subBreed = try await runCLI(["show", "afghan"] + api(server))
    #expect(subBreed.status == 3)
    #expect(
      subBreed.stderr == "error: “afghan” is not in the breed list. It is a sub-breed: try hound/afghan.\n")
    // Part of a sub-breed's name, and of no breed's.
    let partOfSubBreed = try await runCLI(["show", "bass"] + api(server))
    #expect(partOfSubBreed.stderr == "error: “bass” is not in the breed list. Did you mean hound/basset?\n")
    // A name of two words is quoted whole, and read as the list's filter reads it.
    let twoWords = try await runCLI(["show", "Basset Hou"] + api(server))
    #expect(twoWords.status == 3)
    #expect(twoWords.stderr == "error: “basset hou” is not in the breed list. Did you mean hound/basset?\n")
    let spelled = try await runCLI(["show", "p ugg"] + api(server))
    #expect(spelled.stderr == "error: “p ugg” is not in the breed list. Did you mean pug?\n")
    let partOfSub = try await runCLI(["show", "hound/bass"] + api(server))
    #expect(
      partOfSub.stderr
        == "error: Hound has no sub-breed “bass” (it has Afghan, Basset). Did you mean hound/basset?\n")
    // A slip of typing: the breed, or the breed's sub-breed, it misspells.
    let slips = [
      ("huond", "error: “huond” is not in the breed list. Did you mean hound?\n"),
      // The sub-breed asked for comes along where the breed offered has it.
      ("huond/afghan", "error: “huond” is not in the breed list. Did you mean hound/afghan?\n"),
      ("pgu/afghan", "error: “pgu” is not in the breed list. Did you mean pug?\n"),
      ("Ak itta", "error: “ak itta” is not in the breed list. Did you mean akita?\n"),
      (
        "hound/afgan",
        "error: Hound has no sub-breed “afgan” (it has Afghan, Basset). Did you mean hound/afghan?\n"
      ),
    ]
    for (typed, message) in slips {
      let slip = try await runCLI(["show", typed] + api(server))
      #expect(slip.status == 3 && slip.stderr == message, "\(slip.stderr)")
    }
    // Two letters ("ug") are too few to tell a slip; nor is a sub-breed read as a breed.
    let nothing = try await runCLI(["show", "hound/ug"] + api(server))
    #expect(nothing.stderr == "error: Hound has no sub-breed “ug” (it has Afghan, Basset).\n")
    let noSub = try await runCLI(["show", "pug/tiny"] + api(server))
    #expect(noSub.status == 3)
    #expect(noSub.stderr == "error: Pug has no sub-breed “tiny”.\n")
    let gone = try await runCLI(["show", "akita"] + api(server))
    #expect(gone.status == 3)
    #expect(gone.stderr.contains("Not found: Breed not found (main breed does not exist)."))
    let threeWords = try await runCLI(["show", "African Wild Dog"] + api(server))
    #expect(threeWords.status == 3)
    #expect(threeWords.stderr == "error: “african wild dog” is not in the breed list.\n")
    // Letters, but more than any name has: the message says so, not "use letters".
    let long = String(repeating: "a", count: 65)
    for text in [long, "hound/\(long)", "\(long.uppercased()) Hound", "Afghan \(long) Hound"] {
      let tooLong = try await runCLI(["show", text] + api(server))
      #expect(tooLong.status == 2)
      #expect(
        tooLong.stderr == "error: “\(text)” is too long for a breed name: names have at most 64 letters.\n",
        "\(tooLong.stderr)")
    }
    let bad = try await runCLI(["show", "../../etc/passwd"] + api(server))
    #expect(bad.status == 2)
    #expect(
      bad.stderr.hasPrefix("error: “../../etc/passwd” is not a breed name: use letters"), "\(bad.stderr)")
    let longAndBad = try await runCLI(["show", long + "1"] + api(server))
    #expect(longAndBad.stderr.hasPrefix("error: “\(long)1” is not a breed name: use letters"))
    #expect(!server.requests.contains { $0.path.contains("..") })
  }

  @Test func aBreedNamedInWordsIsTheBreedTheyRunTogether() async throws {
    // People write "Shih Tzu" and "St. Bernard"; the API's names run the words together.
    for (typed, shown) in [
      ("Shih Tzu", "Shih Tzu"), ("Shih-Tzu", "Shih Tzu"), ("St. Bernard", "St. Bernard"),
      ("ST-BERNARD", "St. Bernard"),
      ("Coton de Tulear", "Coton de Tuléar"), ("Bull Terrier", "Bull Terrier"),
      // With the accents of its own language, or typed full width.
      ("Coton de Tuléar", "Coton de Tuléar"), ("Brabançon", "Brabançon"), ("Ｈｏｕｎｄ／ａｆｇｈａｎ", "Afghan Hound"),
      ("Mexican Hairless", "Mexican Hairless"),
      // A sub-breed's title, run together either way round.
      ("Kerry Blue Terrier", "Kerry Blue Terrier"), ("Terrier Kerry-Blue", "Kerry Blue Terrier"),
      ("Staffordshire Bull Terrier", "Staffordshire Bull Terrier"), ("Hound-Afghan", "Afghan Hound"),
      // As catalogues write them.
      ("Poodle (Toy)", "Toy Poodle"), ("Retriever, Golden", "Golden Retriever"),
      // A title still names its sub-breed, and a name as written still comes first.
      ("Great Dane", "Great Dane"), ("hound afghan", "Afghan Hound"), ("pug", "Pug"),
      // Pasted from a web page: a soft hyphen, a zero-width space, no-break spaces.
      ("Shih\u{AD}Tzu", "Shih Tzu"), ("hou\u{200B}nd", "Hound"), ("St.\u{A0}Bernard", "St. Bernard"),
      ("Afghan\u{A0}Hound", "Afghan Hound"),
      // A line copied with its line break, or with Windows's.
      ("hound\n", "Hound"), ("\r\nShih Tzu\r\n", "Shih Tzu"),
    ] {
      let run = try await runCLI(["show", typed, "--api", "fake"])
      #expect(run.status == 0 && run.stdout.hasPrefix("\(shown)\n"), "\(typed): \(run.stdout) \(run.stderr)")
    }
    // Not a name as written, nor listed run together: what the letters find, else why.
    for (typed, status, message) in [
      ("St Bernard's", 3, "“st bernard's” is not in the breed list. Did you mean stbernard?"),
      ("African Wild Dog", 3, "“african wild dog” is not in the breed list. Did you mean african/wild?"),
      ("Hound-Afgan", 3, "“hound-afgan” is not in the breed list. Did you mean hound/afghan?"),
      // A longer name than the list's: what its words name.
      (
        "Terrier, Jack-Russell", 3,
        "“terrier, jack-russell” is not in the breed list. Did you mean terrier/russell or terrier?"
      ),
      // Letters in words are a name to look for: found or not, never a usage error.
      ("Big Fluffy Cloud Dog", 3, "“big fluffy cloud dog” is not in the breed list."),
      ("x-y", 3, "“x-y” is not in the breed list."),
      ("hound-1", 2, "“hound-1” is not a breed name: use letters, as in hound or hound/afghan."),
      (
        "hound/afghan/x", 2,
        "“hound/afghan/x” has too many parts: a breed, then at most one sub-breed, as in hound/afghan."
      ),
      ("hound/afghan/", 2, "“hound/afghan/” is not a breed name: use letters, as in hound or hound/afghan."),
      // A breed that one of the words names, where nothing else is near.
      ("Lhasa Apso", 3, "“lhasa apso” is not in the breed list. Did you mean lhasa?"),
      (
        "labrador retriever", 3,
        "Retriever has no sub-breed “labrador” (it has Chesapeake, Curly, Flat-coated, Golden). Did you mean labrador or retriever?"
      ),
      ("Siberian Husky", 3, "Husky has no sub-breed “siberian”. Did you mean husky?"),
      (
        "hound/xyzzy", 3,
        "Hound has no sub-breed “xyzzy” (it has Afghan, Basset, Blood, English, Ibizan, Plott, Walker)."
      ),
    ] {
      let run = try await runCLI(["show", typed, "--api", "fake"])
      #expect(run.status == status && run.stderr == "error: \(message)\n", "\(typed): \(run.stderr)")
    }
    let asCommand = try await runCLI(["St.Bernard", "--api", "fake"])
    #expect(
      asCommand.stderr.hasPrefix("error: Unknown command “St.Bernard”: to see a breed, use show St.Bernard."))
  }

  @Test func aLocaleWithoutUTF8GetsHelpAndMessagesInASCII() async throws {
    let ascii = cleanEnvironment(["LANG": "C"])
    let help = try await runCLI(["--help"], environment: ascii)
    #expect(help.status == 0 && help.stdout.hasPrefix("DogBreedsCLI - browse dog breeds"))
    #expect(help.stdout.contains("2 usage error | 3 not found"))
    #expect(help.stdout.utf8.allSatisfy { $0 < 0x80 })
    let unknown = try await runCLI(["show", "Big Dog", "--api", "fake"], environment: ascii)
    #expect(unknown.status == 3)
    #expect(unknown.stderr == "error: \"big dog\" is not in the breed list.\n")
    let none = try await runCLI(["list", "--filter", "xyz…", "--api", "fake"], environment: ascii)
    #expect(none.status == 3 && none.stderr == "No breeds match \"xyz...\".\n")
    // A UTF-8 locale keeps the typography.
    let utf8 = try await runCLI(["show", "Big Dog", "--api", "fake"])
    #expect(utf8.stderr == "error: “big dog” is not in the breed list.\n")
  }
}
